import { expect } from 'chai';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LogFile } from '../../../src/util/log-file';
import { tempDir } from '../../support/server';

describe('LogFile (the JSON-FILE appender)', () => {
  let dir: string;
  beforeEach(() => { dir = tempDir('grid-log-'); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates its file (0600) at once and has each line in it as soon as it is written', () => {
    const file = new LogFile({ dir, name: 'server.log.json', maxBytes: 1000, keep: 2 });
    expect((statSync(join(dir, 'server.log.json')).mode & 0o777).toString(8)).to.equal('600');
    file.write('{"n":1}\n');
    expect(readFileSync(join(dir, 'server.log.json'), 'utf8')).to.equal('{"n":1}\n');
    file.close();
  });

  it('rotates past the size into NAME.1, NAME.2, and keeps only that many', () => {
    const file = new LogFile({ dir, name: 'server.log.json', maxBytes: 100, keep: 2 });
    const line = (n: number) => `{"n":${n},"pad":"${'x'.repeat(30)}"}\n`; // 46 bytes: two lines a file
    for (let n = 1; n <= 8; n++) file.write(line(n));
    file.close();
    expect(readdirSync(dir).sort()).to.deep.equal(['server.log.json', 'server.log.json.1', 'server.log.json.2']);
    expect(readFileSync(join(dir, 'server.log.json'), 'utf8')).to.equal(line(7) + line(8));
    expect(readFileSync(join(dir, 'server.log.json.1'), 'utf8')).to.equal(line(5) + line(6));
    expect(readFileSync(join(dir, 'server.log.json.2'), 'utf8')).to.equal(line(3) + line(4));
  });

  it('appends to the file an earlier run left', () => {
    const first = new LogFile({ dir, name: 'server.log.json', maxBytes: 1000, keep: 2 });
    first.write('a\n');
    first.close();
    const again = new LogFile({ dir, name: 'server.log.json', maxBytes: 1000, keep: 2 });
    again.write('b\n');
    again.close();
    expect(readFileSync(join(dir, 'server.log.json'), 'utf8')).to.equal('a\nb\n');
  });
});
