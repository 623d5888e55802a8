import type { Store } from '../store/store';
import type { Clock } from '../util/clock';

/** Protobuf schemas (spec 1 "Protobuf schemas", behavior-notes §7). Filled in by the data-formats issue. */
export class SchemaService {
  constructor(private readonly store: Store, private readonly clock: Clock) {}
}
