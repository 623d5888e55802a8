import { expect } from 'chai';
import { Readable } from 'node:stream';
import { contentTypeOf, PlaceholderStream } from '../../../src/http/static-files';

async function rewrite(chunks: string[]): Promise<string> {
  const out: Buffer[] = [];
  const stream = Readable.from(chunks.map((c) => Buffer.from(c))).pipe(new PlaceholderStream([['{{BASE}}', '/console/'], ['{{REST_PATH}}', '/rest']]));
  for await (const chunk of stream) out.push(chunk as Buffer);
  return Buffer.concat(out).toString('utf8');
}

describe('PlaceholderStream', () => {
  it('replaces every placeholder in one chunk', async () => {
    expect(await rewrite(['<a href="{{BASE}}">{{REST_PATH}} {{BASE}}</a>'])).to.equal('<a href="/console/">/rest /console/</a>');
  });

  it('replaces placeholders split across chunks at every position', async () => {
    const text = 'héllo {{BASE}} wörld {{REST_PATH}}!';
    const bytes = Buffer.from(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      const out: Buffer[] = [];
      const stream = Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]).pipe(new PlaceholderStream([['{{BASE}}', '/console/'], ['{{REST_PATH}}', '/rest']]));
      for await (const chunk of stream) out.push(chunk as Buffer);
      expect(Buffer.concat(out).toString('utf8'), `cut at ${cut}`).to.equal('héllo /console/ wörld /rest!');
    }
  });

  it('leaves text without placeholders and lone braces alone', async () => {
    expect(await rewrite(['{{', 'x}} {', '{BAS', 'E} }}'])).to.equal('{{x}} {{BASE} }}');
  });
});

describe('contentTypeOf', () => {
  it('names the types a single-page application ships, octet-stream otherwise', () => {
    expect(contentTypeOf('index.html')).to.equal('text/html; charset=utf-8');
    expect(contentTypeOf('a/b/app.JS')).to.equal('text/javascript; charset=utf-8');
    expect(contentTypeOf('font.woff2')).to.equal('font/woff2');
    expect(contentTypeOf('logo.svg')).to.equal('image/svg+xml');
    expect(contentTypeOf('README')).to.equal('application/octet-stream');
  });
});
