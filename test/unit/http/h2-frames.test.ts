import { expect } from 'chai';
import { encodeHeaderBlock, encodeHeadersFrames, encodeInteger, readFrameHeader } from '../../../src/http/transport/h2-frames';

describe('HTTP/2 frames written by grid (h2-frames)', () => {
  it('encodes HPACK integers as RFC 7541 C.1 shows', () => {
    expect([...encodeInteger(10, 5)]).to.deep.equal([10]);
    expect([...encodeInteger(1337, 5)]).to.deep.equal([31, 154, 10]);
    expect([...encodeInteger(42, 8)]).to.deep.equal([42]);
    expect([...encodeInteger(127, 7)]).to.deep.equal([127, 0]);
  });

  it('writes literal header fields without indexing (RFC 7541 C.2.2)', () => {
    expect(encodeHeaderBlock([[':path', '/sample/path']]).toString('hex')).to.equal('00053a70617468' + '0c2f73616d706c652f70617468');
  });

  it('splits a large header block into HEADERS and CONTINUATION, END_HEADERS on the last only', () => {
    const frames = encodeHeadersFrames(1, Buffer.alloc(40_000), true);
    const headers = frames.map((f) => readFrameHeader(f));
    expect(headers.map((h) => [h.type, h.flags, h.length, h.streamId])).to.deep.equal([[1, 1, 16384, 1], [9, 0, 16384, 1], [9, 4, 7232, 1]]);
  });
});
