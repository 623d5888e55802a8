import { expect } from 'chai';
import { checkResourceName, MAX_NAME_BYTES } from '../../../src/model/resource-name';
import { thrown } from '../../support/thrown';

describe('checkResourceName (docs/security.md "Names")', () => {
  it('accepts what the original accepts: its encoded-name test names, `/`, `.` and `..`', () => {
    for (const name of ['a/', 'a/b/c', 'a-b-c', 'áb\\ćé/+-$', 'org.infinispan.cache', 'a%25bc', 'org/infinispan/a.proto', '.', '..', '../x', ' ', '😀', 'x'.repeat(MAX_NAME_BYTES)]) {
      expect(() => checkResourceName('cache', name), name).not.to.throw();
    }
  });

  it('refuses an empty name, control characters (C0, DEL, C1) and lone surrogates with 400', () => {
    for (const name of ['', 'a\u0000b', 'a\rb', 'a\nb', 'a\tb', 'a\u007f', 'a\u0085b', 'a\u009f', 'a\ud800', '\udc00a', 'a\udc00\ud800']) {
      const err = thrown(() => checkResourceName('counter', name));
      expect(err.status, JSON.stringify(name)).to.equal(400);
      expect(err.message).to.match(/^Invalid counter name /);
    }
  });

  it('refuses more than 255 UTF-8 bytes with ISPN000663', () => {
    expect(thrown(() => checkResourceName('cache', 'é'.repeat(128))).message).to.match(/^ISPN000663: /);
  });
});
