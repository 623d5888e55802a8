import { expect } from 'chai';
import { UnsupportedJavaClassError } from '../../../src/errors';
import { deserializeJava, serializeJava } from '../../../src/model/java/java-serialization';
import type { JavaValue } from '../../../src/model/java/java-value';
import { marshallJBoss, unmarshallJBoss } from '../../../src/model/java/jboss-marshalling';

const hex = (s: string): Buffer => Buffer.from(s.replace(/\s/g, ''), 'hex');
const ascii = (s: string): string => Buffer.from(s).toString('hex');

// Java Object Serialization Specification §6.4: magic aced, version 0005, then TC_* records.
const INTEGER_DESC = `72 0011 ${ascii('java.lang.Integer')} 12e2a0a4f7818738 02 0001 49 0005 ${ascii('value')} 78`;
const NUMBER_DESC = `72 0010 ${ascii('java.lang.Number')} 86ac951d0b94e08b 02 0000 78 70`;
const SERIALIZED: Array<[string, JavaValue, string]> = [
  ['String "abc" (TC_STRING)', { type: 'java.lang.String', value: 'abc' }, `aced0005 74 0003 616263`],
  ['Integer 42', { type: 'java.lang.Integer', value: 42n }, `aced0005 73 ${INTEGER_DESC} ${NUMBER_DESC} 0000002a`],
  ['Long 1', { type: 'java.lang.Long', value: 1n },
    `aced0005 73 72 000e ${ascii('java.lang.Long')} 3b8be490cc8f23df 02 0001 4a 0005 ${ascii('value')} 78 ${NUMBER_DESC} 0000000000000001`],
  ['Boolean true', { type: 'java.lang.Boolean', value: true },
    `aced0005 73 72 0011 ${ascii('java.lang.Boolean')} cd207280d59cfaee 02 0001 5a 0005 ${ascii('value')} 78 70 01`],
  ['byte[] {1,2,3} (TC_ARRAY)', { type: 'byte[]', value: Buffer.from([1, 2, 3]) }, `aced0005 75 72 0002 5b42 acf317f8060854e0 02 0000 78 70 00000003 010203`],
];

// JBoss Marshalling River, protocol version 3 (org.jboss.marshalling.river.Protocol ids).
const JBOSS: Array<[string, JavaValue, string]> = [
  ['String "abc" (ID_STRING_SMALL)', { type: 'java.lang.String', value: 'abc' }, '03 3e 03 616263'],
  ['empty String (ID_STRING_EMPTY)', { type: 'java.lang.String', value: '' }, '03 3d'],
  ['Integer 42 (ID_INTEGER_OBJECT)', { type: 'java.lang.Integer', value: 42n }, '03 4b 0000002a'],
  ['Long -1 (ID_LONG_OBJECT)', { type: 'java.lang.Long', value: -1n }, '03 4c ffffffffffffffff'],
  ['Boolean false (ID_BOOLEAN_OBJECT_FALSE)', { type: 'java.lang.Boolean', value: false }, '03 51'],
  ['byte[] {1,2} (ID_ARRAY_SMALL, byte.class)', { type: 'byte[]', value: Buffer.from([1, 2]) }, '03 42 02 21 0102'],
];

describe('Java formats for String, primitive wrappers and byte[]', () => {
  describe('application/x-java-serialized-object', () => {
    for (const [name, value, bytes] of SERIALIZED) {
      it(`writes and reads ${name} byte-exact`, () => {
        expect(serializeJava(value).toString('hex')).to.equal(hex(bytes).toString('hex'));
        expect(deserializeJava(hex(bytes))).to.deep.equal(value);
      });
    }

    it('refuses any other class without instantiating it', () => {
      const date = hex(`aced0005 73 72 000e ${ascii('java.util.Date')} 686a81014b597419 03 0000 78 70 77 08 0000000000000000 78`);
      expect(() => deserializeJava(date)).to.throw(UnsupportedJavaClassError, "Class 'java.util.Date' blocked by deserialization allow list");
    });
  });

  describe('application/x-jboss-marshalling', () => {
    for (const [name, value, bytes] of JBOSS) {
      it(`writes and reads ${name} byte-exact`, () => {
        expect(marshallJBoss(value).toString('hex')).to.equal(hex(bytes).toString('hex'));
        expect(unmarshallJBoss(hex(bytes))).to.deep.equal(value);
      });
    }

    it('refuses objects other than the supported ones', () => {
      expect(() => unmarshallJBoss(hex('03 64 00'))).to.throw(UnsupportedJavaClassError);
    });
  });
});
