import { expect } from 'chai';
import { detectConfigFormat } from '../../../../src/model/cache-config';

describe('detectConfigFormat', () => {
  const table: Array<[string | undefined, string, string | undefined]> = [
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
    [undefined, '{}', undefined],
  ];
  for (const [contentType, body, format] of table) {
    it(`maps ${contentType ?? 'no Content-Type'} with ${JSON.stringify(body.trim().slice(0, 6))} to ${format ?? 'undefined'}`, () => {
      expect(detectConfigFormat(contentType, body)).to.equal(format);
    });
  }
});
