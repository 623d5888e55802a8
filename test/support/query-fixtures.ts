/**
 * Schemas and data of the original's REST search tests (docs/reference/query.md#scenarios), shared by the unit and
 * HTTP suites.
 */

export const PERSON_PACKAGE = 'org.infinispan.rest.search.entity';
export const PERSON = `${PERSON_PACKAGE}.Person`;

/** person.proto with the 15.x annotations (docs/reference/query.md#scenario-person). */
export const PERSON_PROTO = `package ${PERSON_PACKAGE};

/* @Indexed */
message Address {
  /* @Text(projectable = true) */
  required string street = 1;
  /* @Basic(projectable = true) */
  required string postCode = 2;
}

/* @Indexed */
message PhoneNumber {
  /* @Basic(projectable = true) */
  required string number = 1;
}

/* @Indexed */
message Person {
  /* @Basic(projectable = true) */
  optional int32 id = 1;
  /* @Basic(projectable = true, sortable = true) */
  required string name = 2;
  /* @Basic(projectable = true) */
  required string surname = 3;
  enum Gender {
    MALE = 0;
    FEMALE = 1;
  }
  /* @Basic(projectable = true) */
  optional Gender gender = 4;
  /* @Text(projectable = true) */
  optional Address address = 5;
  /* @Basic(projectable = true) */
  repeated PhoneNumber phoneNumbers = 6;
  /* @Basic(projectable = true) */
  optional uint32 age = 7;
}
`;

/** person.proto as the v1 tests register it: legacy @Field annotations (docs/reference/query.md#v1-search). */
export const PERSON_PROTO_LEGACY = `package ${PERSON_PACKAGE};

/**
 * @Indexed
 */
message Address {
    /**
     * @Field(analyze = Analyze.YES, store = Store.YES)
     */
    required string street = 1;
    /**
     * @Field(store = Store.YES)
     */
    required string postCode = 2;
}

/**
 * @Indexed
 */
message PhoneNumber {
    /**
     * @Field(store = Store.YES)
     */
    required string number = 1;
}

/**
 * @Indexed
 */
message Person {
    /**
     * @Field(store = Store.YES)
     */
    optional int32 id = 1;
    /**
     * @Field(store = Store.YES)
     * @SortableField
     */
    required string name = 2;
    /**
     * @Field(store = Store.YES)
     */
    required string surname = 3;
    enum Gender {
        MALE = 0;
        FEMALE = 1;
    }
    /**
     * @Field(store = Store.YES)
     */
    optional Gender gender = 4;
    /**
     * @Field(analyze = Analyze.YES, store = Store.YES)
     */
    optional Address address = 5;
    /**
     * @Field(store = Store.YES)
     */
    repeated PhoneNumber phoneNumbers = 6;
    /**
     * @Field(store = Store.YES)
     */
    optional uint32 age = 7;
}
`;

/** person-changed.proto: adds `newField`, address and phoneNumbers become @Embedded. */
export const PERSON_CHANGED_PROTO = PERSON_PROTO
  .replace('/* @Text(projectable = true) */\n  optional Address address = 5;', '/* @Embedded */\n  optional Address address = 5;')
  .replace('/* @Basic(projectable = true) */\n  repeated PhoneNumber', '/* @Embedded */\n  repeated PhoneNumber')
  .replace('optional uint32 age = 7;\n}', 'optional uint32 age = 7;\n  /* @Basic(projectable = true) */\n  optional string newField = 8;\n}');

export interface PersonJson {
  _type: string;
  id: number;
  name: string;
  surname: string;
  gender: 'MALE' | 'FEMALE';
  address: { street: string; postCode: string };
  phoneNumbers: unknown[];
}

/** The 50 people of docs/reference/query.md#scenario-person: four heroes, then Generic5…Generic50. */
export function people(count = 50): Array<[string, PersonJson]> {
  const heroes: Array<[string, string, string, string, 'MALE' | 'FEMALE']> = [
    ['Jessica', 'Jones', '46th St', 'NY 10036', 'FEMALE'],
    ['Luke', 'Cage', 'Malcolm X Boulevard', 'NY 11221', 'MALE'],
    ['Matthew', 'Murdock', '57th St', 'NY 10019', 'MALE'],
    ['Danny', 'Randy', 'Vanderbilt Av.', 'NY 10017', 'MALE'],
  ];
  const out: Array<[string, PersonJson]> = [];
  for (let id = 1; id <= count; id++) {
    const [name, surname, street, postCode, gender] = heroes[id - 1] ?? [`Generic${id}`, `Generic${id}`, `Generic${id}`, `Generic${id}`, 'MALE'];
    out.push([String(id), { _type: PERSON, id, name, surname, gender, address: { street, postCode }, phoneNumbers: [] }]);
  }
  return out;
}

/** count.proto of SearchCountClusteredTest / SearchCountLocalTest (docs/reference/query.md#scenario-count). */
export const COUNT_PROTO = `/* @Indexed */
message IndexedEntity {
  /* @Text(projectable = true) */
  optional string indexedStoredField = 1;
  /* @Text */
  optional string indexedNotStoredField = 2;
  /* @Basic */
  optional string sortableNotStoredField = 3;
  /* @Basic(projectable = true) */
  optional int64 sortableStoredField = 4;
  optional string notIndexedField = 5;
}

message NotIndexedEntity {
  optional string field1 = 1;
  optional string field2 = 2;
}
`;

/** RestQueryAggregationCountTest's entity (docs/reference/query.md#scenario-others), no package. */
export const SALE_PROTO = `/* @Indexed */
message Sale {
  /* @Basic */
  optional string id = 1;
  /* @Basic */
  optional string code = 2;
  /* @Basic(sortable = true, aggregable = true) */
  optional string status = 3;
  /* @Basic */
  optional int32 day = 4;
}
`;

/** RestProjectionTest's and RestHitCountAccuracyTest's entity (docs/reference/query.md#scenario-others). */
export const GAME_PROTO = `/* @Indexed(index="play") */ message Game {
  /* @Keyword(projectable = true, sortable = true) */
  optional string name = 1;
  /* @Text */
  optional string description = 2;
}
`;

/** CacheResourceV2Test's entities (docs/reference/query.md#scenario-others). */
export const ENTITY_PROTO = `/* @Indexed */
message Entity {
  /* @Basic */
  required int32 value = 1;
  optional string description = 2;
}

/* @Indexed */
message Another {
  /* @Basic */
  required int32 value = 1;
  optional string description = 2;
}
`;

/** A java.util.Random(seed) of the JDK, to draw the original's Sale statuses (docs/reference/query.md#scenario-others). */
export class JavaRandom {
  private seed: bigint;

  constructor(seed: number) {
    this.seed = (BigInt(seed) ^ 0x5deece66dn) & ((1n << 48n) - 1n);
  }

  nextInt(bound: number): number {
    if ((bound & -bound) === bound) return Number((BigInt(bound) * this.next(31)) >> 31n);
    for (;;) {
      const bits = Number(this.next(31));
      const val = bits % bound;
      if (bits - val + (bound - 1) < 2 ** 31) return val;
    }
  }

  private next(bits: number): bigint {
    this.seed = (this.seed * 0x5deece66dn + 0xbn) & ((1n << 48n) - 1n);
    return this.seed >> BigInt(48 - bits);
  }
}
