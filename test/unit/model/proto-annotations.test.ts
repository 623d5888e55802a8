import { expect } from 'chai';
import { boolAttr, parseAnnotations } from '../../../src/model/protobuf/proto-annotations';
import { checkProtoFiles, commentsOnOwnLine, findType } from '../../../src/model/protobuf/proto-files';

describe('schema comment annotations (docs/reference/query.md#annotations)', () => {
  it('reads names, booleans, strings, numbers, qualified names, nested annotations and lists', () => {
    const [field, sortable, fields] = parseAnnotations(
      '@Field(store = Store.YES, analyze=Analyze.NO, analyzer = @Analyzer(definition = "english"), boost = 2)\n * @SortableField\n * @Fields({@Field(name="a"), @Field})',
    );
    expect(field).to.deep.equal({
      name: 'Field',
      attributes: { store: 'Store.YES', analyze: 'Analyze.NO', analyzer: { name: 'Analyzer', attributes: { definition: 'english' } }, boost: 2 },
    });
    expect(boolAttr(field, 'store', false)).to.equal(true);
    expect(boolAttr(field, 'analyze', true)).to.equal(false);
    expect(sortable).to.deep.equal({ name: 'SortableField', attributes: {} });
    expect(fields.attributes.value).to.have.length(2);
  });

  it('ignores documentation text, e-mail addresses and malformed annotations', () => {
    expect(parseAnnotations('The person. Mail me@example.com. @Broken(x= @Basic(sortable=true)').map((a) => a.name)).to.deep.equal(['Basic']);
    expect(parseAnnotations(null)).to.deep.equal([]);
  });

  it('keeps annotations of block comments on the declaration line and drops trailing line comments', () => {
    const src = 'package p;\n/* @Indexed */ message M {\n  /* @Basic */ optional string a = 1; /* @Text */ optional string b = 2;\n  /** @Keyword */\n  optional string c = 3; // trailing\n  optional string d = 4 [default = "x/*y"];\n}\n';
    const check = checkProtoFiles([{ name: 'p.proto', content: src }]);
    const t = findType(check.root, 'p.M') as import('protobufjs').Type;
    expect(t.comment).to.equal('@Indexed');
    expect(t.fieldsArray.map((f) => f.comment)).to.deep.equal(['@Basic', '@Text', '@Keyword', null]);
    expect(commentsOnOwnLine(src)).to.contain('"x/*y"');
  });
});
