import { expect } from 'chai';
import { AliasInUseError, CacheCountError, CacheNotFoundError, defineError, GridError, IckleSyntaxError, InvalidConfigurationError,
  isGridError, MalformedBodyError, QueryError, TooManyFailedLoginsError } from '../../../src/errors';

describe('defineError: an error declared as data is a class of its own', () => {
  it('answers with the declared status and code, and the ISPN id before the text', () => {
    const err = new CacheNotFoundError('orders');
    expect(err).to.be.instanceOf(CacheNotFoundError).and.instanceOf(GridError).and.instanceOf(Error);
    expect(isGridError(err)).to.equal(true);
    expect(err).to.include({ name: 'CacheNotFoundError', status: 404, code: 'CACHE_NOT_FOUND' });
    expect(err.message).to.equal("ISPN012010: Cache with name 'orders' not found amongst the configured caches");
    expect(err.headers).to.deep.equal({});
    expect(err.stack).to.match(/^CacheNotFoundError: ISPN012010/);
  });

  it('has no body when it declares no text, and the headers its arguments give', () => {
    class Gone extends defineError({ code: 'GONE', status: 410 }) {}
    expect(new Gone()).to.include({ name: 'Gone', status: 410, code: 'GONE', message: '' });
    expect(new TooManyFailedLoginsError(7).headers).to.deep.equal({ 'Retry-After': '7' });
  });

  it('belongs to its family, declared or not, with its own code and text', () => {
    const count = new CacheCountError(2);
    expect(count).to.be.instanceOf(InvalidConfigurationError);
    expect(count).to.include({ name: 'CacheCountError', status: 400, code: 'CACHE_COUNT', message: 'Expected exactly one cache definition, found 2' });
    expect(new InvalidConfigurationError('bad')).to.include({ code: 'INVALID_CONFIGURATION', message: 'bad' });
    expect(new IckleSyntaxError('q', 'd')).to.be.instanceOf(QueryError).and.include({ code: 'QUERY_SYNTAX' });
  });

  it('takes the status from the caller where it declares a list of them', () => {
    expect(new MalformedBodyError(408, 'late')).to.include({ status: 408, code: 'MALFORMED_BODY', message: 'late' });
    expect(new MalformedBodyError(400, 'chunk')).to.include({ status: 400 });
  });

  it('keeps the fields a subclass adds for the code that catches it', () => {
    const err = new AliasInUseError('a', 'c');
    expect(err).to.include({ name: 'AliasInUseError', alias: 'a', cache: 'c', message: "The alias 'a' is already being used by cache 'c'" });
  });
});
