import { expect } from 'chai';
import {
  InvalidScriptModeError, NoScriptEngineError, ScriptParametersNotArrayError, ScriptPropertiesNotObjectError, UnknownScriptPropertyError,
} from '../../../src/errors';
import fc from 'fast-check';
import { isJavaScript, metadataPairs, parseScriptMetadata, requireJavaScript } from '../../../src/model/script-metadata';
import { thrown } from '../../support/thrown';

// Script header syntax (docs/reference/management-plane.md#script-header, ScriptMetadataParser).
describe('parseScriptMetadata', () => {
  it('reads hello.js', () => {
    const m = parseScriptMetadata('hello', '// mode=local,language=javascript,parameters=[greetee]\n"Hello " + greetee');
    expect(m).to.deep.equal({
      name: 'hello', extension: 'js', language: 'javascript', mode: 'LOCAL', parameters: ['greetee'], role: undefined,
      dataType: 'text/plain; charset=utf-8', properties: {},
    });
  });

  it('defaults: local, extension from the name suffix else js, no parameters', () => {
    expect(parseScriptMetadata('a.groovy', '1')).to.include({ extension: 'groovy', mode: 'LOCAL' });
    expect(parseScriptMetadata('plain', '1')).to.include({ extension: 'js' });
    expect(parseScriptMetadata('trailing.', '1')).to.include({ extension: 'js' });
    expect(parseScriptMetadata('x', '').parameters).to.deep.equal([]);
  });

  it('accepts //, # and ;; lines and stops at the first other line', () => {
    const m = parseScriptMetadata('x', '# mode=distributed\n;; role=ops\n//parameters=[a, b ,c]\nlet y = 1;\n// language=python');
    expect(m).to.include({ mode: 'DISTRIBUTED', role: 'ops', language: undefined });
    expect(m.parameters).to.deep.equal(['a', 'b', 'c']);
  });

  it('ignores metadata lines without key=value pairs and reads CRLF scripts', () => {
    const m = parseScriptMetadata('x', '// a comment about the task\r\n// role=admin\r\n1');
    expect(m.role).to.equal('admin');
  });

  it('stops at an empty comment line (the original needs text after the marker)', () => {
    expect(parseScriptMetadata('x', '//\n// role=admin\n1').role).to.equal(undefined);
  });

  it('reads keys case-insensitively and unquotes single- and double-quoted values', () => {
    const m = parseScriptMetadata('x', `// NAME="my task", Role='a b', DataType="application/json"`);
    expect(m).to.include({ name: 'my task', role: 'a b', dataType: 'application/json' });
  });

  it('reads mode case-insensitively and refuses others', () => {
    expect(parseScriptMetadata('x', '// mode=Distributed').mode).to.equal('DISTRIBUTED');
    expect(thrown(() => parseScriptMetadata('x', '// mode=cluster'), InvalidScriptModeError).status).to.equal(400);
  });

  it('reads properties as an object', () => {
    expect(parseScriptMetadata('x', '// properties={a:1, b: "two"}, role=r').properties).to.deep.equal({ a: '1', b: 'two' });
    expect(thrown(() => parseScriptMetadata('x', '// properties=a'), ScriptPropertiesNotObjectError).status).to.equal(400);
  });

  it('refuses parameters that are not an array (400 ISPN027511)', () => {
    const e = thrown(() => parseScriptMetadata('x', '// parameters=a'), ScriptParametersNotArrayError);
    expect(e.status).to.equal(400);
    expect(e.message).to.match(/^ISPN027511: /);
  });

  it('refuses an unknown key (500 ISPN027506), lower-cased in the message', () => {
    const e = thrown(() => parseScriptMetadata('x', '// mode=local,Reducer=r'), UnknownScriptPropertyError);
    expect(e.status).to.equal(500);
    expect(e.message).to.equal("ISPN027506: Unknown script mode: 'reducer'");
  });

  it('refuses a malformed datatype (400)', () => {
    expect(thrown(() => parseScriptMetadata('x', '// datatype=nonsense')).status).to.equal(400);
  });
});

describe('requireJavaScript', () => {
  it('accepts the JavaScript engine names and the js extension only', () => {
    for (const language of ['javascript', 'JavaScript', 'js', 'ECMAScript', 'nashorn']) {
      expect(isJavaScript(parseScriptMetadata('x', `// language=${language}`)), language).to.equal(true);
    }
    expect(isJavaScript(parseScriptMetadata('x.js', '1'))).to.equal(true);
    expect(isJavaScript(parseScriptMetadata('x', '// extension=py'))).to.equal(false);
    expect(isJavaScript(parseScriptMetadata('x.js', '// language=python'))).to.equal(false);
    const e = thrown(() => requireJavaScript('t', parseScriptMetadata('t', '// language=groovy')), NoScriptEngineError);
    expect(e.message).to.equal("ISPN027507: Cannot find an appropriate script engine for script 't'");
  });
});

describe('parseScriptMetadata on long headers', () => {
  // the expression the header was once read with: tried again at every character, it was quadratic
  const KEY_VALUE = /\s*(\w+)\s*=\s*("[^"]*"|'[^']*'|\[[\w,\s]*\]|\{[^}]*\}|[^,=\s"]+)\s*,?/g;

  it('finds the pairs that expression finds, on 20,000 random lines', () => {
    const pieces = ['a', 'role', '_x9', ' ', '\t', '\u00a0', '=', ',', '"', "'", '[', ']', '{', '}', ':', 'é', '-', '\n'];
    fc.assert(fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
      const line = parts.join('');
      expect([...metadataPairs(line)]).to.deep.equal([...line.matchAll(KEY_VALUE)].map(([, k, v]) => [k, v]));
    }), { numRuns: 20_000 });
  });
});
