import { expect } from 'chai';
import { configFormatOf, parseConfigType, sniffConfigFormat } from '../../../../src/model/cache-config';

describe('parseConfigType and configFormatOf (docs/reference/management-plane.md#cache-create)', () => {
  const table: Array<[string, string, string | undefined]> = [
    ['application/json', '{}', 'json'],
    ['application/json; charset=UTF-8', '{}', 'json'],
    ['Application/XML', '<a/>', 'xml'],
    ['application/yaml', 'a: b', 'yaml'],
    ['application/x-yaml', 'a: b', 'yaml'],
    ['text/yaml', 'a: b', 'yaml'],
    ['text/plain', '  <local-cache/>', 'xml'],
    ['text/plain', '\n{"local-cache":{}}', 'json'],
    ['text/plain', 'localCache: ~', 'yaml'],
    ['text/plain;', '<local-cache/>', 'xml'],
    ['text/plain; charset=UTF-8', '<local-cache/>', undefined],
    ['text/html', '<local-cache/>', undefined],
    ['application/octet-stream', '{}', undefined],
    ['', '{}', undefined],
  ];
  for (const [contentType, body, format] of table) {
    it(`maps ${JSON.stringify(contentType)} with ${JSON.stringify(body.trim().slice(0, 6))} to ${format ?? 'undefined'}`, () => {
      expect(configFormatOf(parseConfigType(contentType), body)).to.equal(format);
    });
  }

  it('tells text/plain with parameters (refused by the reader) from other types (415), keeping the text as sent', () => {
    expect(parseConfigType('Text/Plain ; charset=utf-8')).to.deep.equal({ kind: 'text-with-parameters', text: 'Text/Plain ; charset=utf-8' });
    expect(parseConfigType('image/png')).to.deep.equal({ kind: 'other', text: 'image/png' });
    expect(parseConfigType('text/plain;;')).to.deep.equal({ kind: 'text', text: 'text/plain;;' });
  });

  it('recognises a body without a type from its text', () => {
    expect(sniffConfigFormat(' <infinispan/>')).to.equal('xml');
    expect(sniffConfigFormat('{}')).to.equal('json');
    expect(sniffConfigFormat('')).to.equal('yaml');
  });
});
