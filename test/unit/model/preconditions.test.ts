import { expect } from 'chai';
import { GridError } from '../../../src/errors';
import { evaluateRead } from '../../../src/model/preconditions';

const ETAG = '-1390062818';
// Last modified at 10:00:00.500 UTC; HTTP dates have second granularity.
const LAST_MODIFIED = Date.parse('2024-05-01T10:00:00.500Z');
// Dates arrive as epoch ms, parsed where the request arrives (src/http/request-headers.ts).
const AT = Date.parse('Wed, 01 May 2024 10:00:00 GMT');
const BEFORE = Date.parse('Wed, 01 May 2024 09:59:59 GMT');
const AFTER = Date.parse('Wed, 01 May 2024 10:00:01 GMT');

describe('evaluateRead: conditional GET/HEAD (docs/reference/data-plane.md#conditional-reads)', () => {
  it('proceeds without conditional headers', () => {
    expect(evaluateRead(ETAG, LAST_MODIFIED, {})).to.equal('proceed');
  });

  describe('If-None-Match', () => {
    it('equal to the ETag → 304', () => {
      expect(evaluateRead(ETAG, LAST_MODIFIED, { ifNoneMatch: ETAG })).to.equal('not-modified');
    });

    it('different from the ETag → proceeds', () => {
      expect(evaluateRead(ETAG, LAST_MODIFIED, { ifNoneMatch: '42' })).to.equal('proceed');
    });

    it('compares as exact strings: a quoted ETag does not match', () => {
      expect(evaluateRead(ETAG, LAST_MODIFIED, { ifNoneMatch: `"${ETAG}"` })).to.equal('proceed');
    });
  });

  describe('If-Match', () => {
    it('different from the ETag → 412', () => {
      expect(evaluateRead(ETAG, LAST_MODIFIED, { ifMatch: '42' })).to.equal('failed');
    });

    it('equal to the ETag → proceeds', () => {
      expect(evaluateRead(ETAG, LAST_MODIFIED, { ifMatch: ETAG })).to.equal('proceed');
    });
  });

  describe('If-Unmodified-Since', () => {
    it('earlier than Last-Modified → 412', () => {
      expect(evaluateRead(ETAG, LAST_MODIFIED, { ifUnmodifiedSince: BEFORE })).to.equal('failed');
    });

    it('in the same second as Last-Modified → proceeds', () => {
      expect(evaluateRead(ETAG, LAST_MODIFIED, { ifUnmodifiedSince: AT })).to.equal('proceed');
    });

    it('later than Last-Modified → proceeds', () => {
      expect(evaluateRead(ETAG, LAST_MODIFIED, { ifUnmodifiedSince: AFTER })).to.equal('proceed');
    });
  });

  describe('If-Modified-Since', () => {
    it('in the same second as Last-Modified → 304', () => {
      expect(evaluateRead(ETAG, LAST_MODIFIED, { ifModifiedSince: AT })).to.equal('not-modified');
    });

    it('later than Last-Modified → 304', () => {
      expect(evaluateRead(ETAG, LAST_MODIFIED, { ifModifiedSince: AFTER })).to.equal('not-modified');
    });

    it('earlier than Last-Modified → proceeds', () => {
      expect(evaluateRead(ETAG, LAST_MODIFIED, { ifModifiedSince: BEFORE })).to.equal('proceed');
    });
  });

  describe('order: If-None-Match, If-Match, If-Unmodified-Since, If-Modified-Since', () => {
    it('a matching If-None-Match answers 304 before a failing If-Match', () => {
      expect(evaluateRead(ETAG, LAST_MODIFIED, { ifNoneMatch: ETAG, ifMatch: '42' })).to.equal('not-modified');
    });

    it('a failing If-Match answers 412 before a satisfied If-Modified-Since', () => {
      expect(evaluateRead(ETAG, LAST_MODIFIED, { ifMatch: '42', ifModifiedSince: AFTER })).to.equal('failed');
    });

    it('a failing If-Unmodified-Since answers 412 before a satisfied If-Modified-Since', () => {
      expect(evaluateRead(ETAG, LAST_MODIFIED, { ifUnmodifiedSince: BEFORE, ifModifiedSince: AFTER })).to.equal('failed');
    });

    it('a non-matching If-None-Match still lets If-Modified-Since answer 304', () => {
      expect(evaluateRead(ETAG, LAST_MODIFIED, { ifNoneMatch: '42', ifModifiedSince: AT })).to.equal('not-modified');
    });
  });

  describe('entries without Last-Modified (immortal, docs/reference/data-plane.md#conditional-reads)', () => {
    it('ignore the date conditions', () => {
      expect(evaluateRead(ETAG, undefined, { ifUnmodifiedSince: BEFORE })).to.equal('proceed');
      expect(evaluateRead(ETAG, undefined, { ifModifiedSince: AFTER })).to.equal('proceed');
    });

    it('still answer the ETag conditions', () => {
      expect(evaluateRead(ETAG, undefined, { ifNoneMatch: ETAG })).to.equal('not-modified');
      expect(evaluateRead(ETAG, undefined, { ifMatch: '42' })).to.equal('failed');
    });
  });

  describe('bad dates', () => {
    for (const header of ['ifModifiedSince', 'ifUnmodifiedSince'] as const) {
      it(`a ${header} that is not a date → 400 "Could not parse date …"`, () => {
        let caught: unknown;
        try {
          evaluateRead(ETAG, LAST_MODIFIED, { [header]: { unreadable: 'yesterday-ish' } });
        } catch (err) {
          caught = err;
        }
        expect(caught).to.be.instanceOf(GridError);
        expect((caught as GridError).status).to.equal(400);
        expect((caught as GridError).message).to.equal("Could not parse date 'yesterday-ish'");
      });
    }

    it('is refused even for an entry without Last-Modified', () => {
      expect(() => evaluateRead(ETAG, undefined, { ifModifiedSince: { unreadable: 'soon' } })).to.throw("Could not parse date 'soon'");
    });

    it('is not looked at when an ETag condition already answered', () => {
      expect(evaluateRead(ETAG, LAST_MODIFIED, { ifNoneMatch: ETAG, ifModifiedSince: { unreadable: 'soon' } })).to.equal('not-modified');
      expect(evaluateRead(ETAG, LAST_MODIFIED, { ifMatch: '42', ifUnmodifiedSince: { unreadable: 'soon' } })).to.equal('failed');
    });
  });
});
