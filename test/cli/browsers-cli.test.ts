import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGrid } from '../support/cli';
import { spawnServer, waitForExit } from '../support/process';
import { requestWithHost } from '../support/raw-http';

/** `grid start` as a user runs it: the --no-auth rule and the browser settings of the config file. */
describe('grid start: browser settings', function () {
  this.timeout(30_000);
  let dir: string;

  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'grid-browsers-cli-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function file(name: string, text: string): string {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  }

  it('grid start --help names the flag and the properties', () => {
    const r = runGrid(['start', '--help']);
    for (const word of ['--allow-remote-no-auth', 'grid.server.rest.cors-allow', 'grid.server.rest.allowed-hosts']) expect(r.stdout, word).to.include(word);
  });

  describe('--no-auth on an address other machines can reach', () => {
    it('is refused at start with exit code 2 and a message saying how to proceed', () => {
      const r = runGrid(['start', '--data', join(dir, 'data'), '--port', '0', '--no-auth', '--host', '0.0.0.0']);
      expect(r.status).to.equal(2);
      expect(r.stderr).to.include("grid: --no-auth on '0.0.0.0'");
      expect(r.stderr).to.include('--allow-remote-no-auth');
      expect(r.stdout).to.not.include('listening on');
    });

    it('is refused when the config file asks for it too', () => {
      const config = file('open.yaml', 'server:\n  auth: false\n  host: 0.0.0.0');
      const r = runGrid(['start', '--data', join(dir, 'data'), '--port', '0', '--config', config]);
      expect(r.status).to.equal(2);
      expect(r.stderr).to.include('--allow-remote-no-auth');
    });

    it('starts when forced with --allow-remote-no-auth (and then has no Host check)', async () => {
      const proc = await spawnServer(['--data', join(dir, 'data'), '--no-auth', '--host', '0.0.0.0', '--allow-remote-no-auth']);
      try {
        expect(proc.output()).to.include('authentication is OFF');
        const url = proc.url.replace('0.0.0.0', '127.0.0.1');
        expect((await requestWithHost(url, 'GET', '/rest/v2/caches', { Host: 'grid.anywhere.example' })).status).to.equal(200);
      } finally {
        proc.child.kill('SIGTERM');
        await waitForExit(proc.child);
      }
    });
  });

  describe('cors-rules validated at start', () => {
    const cases: Array<[string, string, string]> = [
      ['bad.yaml', 'server:\n  cors-rules:\n    - name: app\n      allowed-origins: https://app.example/\n      allowed-methods: GET', "cors-rules[0] ('app'): allowed-origins: 'https://app.example/' is not an origin"],
      ['bad.json', JSON.stringify({ server: { 'cors-rules': [{ name: 'app', 'allowed-origins': '*' }] } }), "cors-rules[0] ('app'): allowed-methods is required"],
      ['bad.xml', '<server><cors-rules><cors-rule name="app" max-age-seconds="soon"><allowed-origins>*</allowed-origins><allowed-methods>GET</allowed-methods></cors-rule></cors-rules></server>', "max-age-seconds: 'soon' must be a whole number"],
    ];
    for (const [name, text, message] of cases) {
      it(`stops with exit code 2 and names the problem (${name.split('.')[1]})`, () => {
        const config = file(name, text);
        const r = runGrid(['start', '--data', join(dir, 'data'), '--port', '0', '--config', config]);
        expect(r.status).to.equal(2);
        expect(r.stderr).to.include(`grid: ${config}: `);
        expect(r.stderr).to.include(message);
      });
    }

    it('applies rules from an XML file and the -D cors-allow property, in that order of precedence', async () => {
      const config = file('rules.xml', [
        '<server>',
        '  <allowed-hosts>grid.test</allowed-hosts>',
        '  <cors-rules>',
        '    <cors-rule name="app" max-age-seconds="60">',
        '      <allowed-origins>https://app.example,https://both.example</allowed-origins>',
        '      <allowed-methods>GET</allowed-methods>',
        '    </cors-rule>',
        '  </cors-rules>',
        '</server>',
      ].join('\n'));
      const proc = await spawnServer(['--data', join(dir, 'data'), '--config', config, '--no-auth', '-Dgrid.server.rest.cors-allow=https://both.example']);
      try {
        const preflight = (origin: string) => requestWithHost(proc.url, 'OPTIONS', '/rest/v2/caches', { Origin: origin, 'Access-Control-Request-Method': 'GET' });
        const app = await preflight('https://app.example');
        expect(app.status).to.equal(200);
        expect(app.headers['access-control-allow-origin']).to.equal('https://app.example');
        expect(app.headers['access-control-allow-methods']).to.equal('GET');
        expect(app.headers['access-control-max-age']).to.equal('60');
        const both = await preflight('https://both.example');
        expect(both.headers['access-control-allow-credentials'], 'the property comes first').to.equal('true');
        expect(both.headers['access-control-allow-methods']).to.include('DELETE');
        const host = await requestWithHost(proc.url, 'GET', '/rest/v2/caches', { Host: 'grid.test' });
        expect(host.status, 'allowed-hosts from the file').to.equal(200);
        expect((await requestWithHost(proc.url, 'GET', '/rest/v2/caches', { Host: 'grid.other' })).status).to.equal(403);
      } finally {
        proc.child.kill('SIGTERM');
        await waitForExit(proc.child);
      }
    });
  });
});
