import { expect } from 'chai';
import { excerpt, InvalidContentError, UnknownTypeError } from '../../../src/errors';

describe('client text in error messages', () => {
  it('is quoted whole up to 200 characters, else its first 200 and an ellipsis', () => {
    expect(excerpt('x'.repeat(200))).to.equal('x'.repeat(200));
    expect(excerpt('x'.repeat(201))).to.equal(`${'x'.repeat(200)}…`);
  });

  it('is never cut inside a surrogate pair', () => {
    expect(excerpt(`${'x'.repeat(199)}😀tail`)).to.equal(`${'x'.repeat(199)}…`);
  });

  it('keeps names a client chose short in the errors that quote them', () => {
    expect(new UnknownTypeError('t'.repeat(10_000)).message).to.equal(`Unknown type name : ${'t'.repeat(200)}…`);
    expect(new InvalidContentError('short').message).to.equal('short');
  });
});
