import { expect } from 'chai';
import { decodeName, encodeName, fileNameOf, MAX_FILE_NAME_CHARS } from '../../../src/model/name-encoding';

// the names of the original's encoded-name tests, and the ones that could climb out of a folder
const NAMES = ['a/', 'a/b/c', 'a-b-c', 'áb\\ćé/+-$', 'org.infinispan.cache', 'a%25bc', 'a/b', 'a%2Fb', '..', '.', '../x', 'x,y', 'é ü', 'A', 'a', '~'];

describe('name encoding (docs/security.md "Names")', () => {
  it('keeps letters, digits, . _ - and encodes every other byte, so no name holds a separator, is . or .., or breaks a list', () => {
    for (const name of NAMES) {
      const encoded = encodeName(name);
      expect(encoded, name).to.match(/^(?:[A-Za-z0-9._-]|%[0-9A-F]{2})+$/);
      expect(encoded, name).not.to.match(/^\.\.?$/);
      expect(decodeName(encoded), name).to.equal(name);
    }
    expect(encodeName('org.infinispan.cache')).to.equal('org.infinispan.cache');
    expect(encodeName('áb\\ćé/+-$')).to.equal('%C3%A1b%5C%C4%87%C3%A9%2F%2B-%24');
  });

  it('gives two names two encodings: a/b and a%2Fb stay apart', () => {
    expect(encodeName('a/b')).to.equal('a%2Fb');
    expect(encodeName('a%2Fb')).to.equal('a%252Fb');
    expect(new Set(NAMES.map(encodeName)).size).to.equal(NAMES.length);
  });

  it('reads back only what it writes', () => {
    for (const bad of ['', 'a/b', 'a b', '%', '%2', '%zz', '%C3', 'a~b']) expect(decodeName(bad), bad).to.equal(undefined);
  });

  it('keeps file names short enough for a file system: a 255-byte name becomes a prefix, ~ and a hash', () => {
    const long = 'é'.repeat(127); // 254 bytes, 762 characters encoded
    const file = fileNameOf(long);
    expect(file.length).to.be.at.most(MAX_FILE_NAME_CHARS);
    expect(file).to.match(/^(?:%[0-9A-F]{2})+~[0-9a-f]{32}$/);
    expect(fileNameOf(long.slice(0, -1) + 'è')).not.to.equal(file);
    expect(fileNameOf('a/b')).to.equal('a%2Fb');
    expect(fileNameOf('x'.repeat(MAX_FILE_NAME_CHARS))).to.equal('x'.repeat(MAX_FILE_NAME_CHARS));
    expect(fileNameOf('x'.repeat(MAX_FILE_NAME_CHARS + 1))).to.match(/^x{160}~/);
  });
});
