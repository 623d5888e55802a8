/** What entry listeners hear (docs/reference/data-plane.md#entry-events). */
export interface EntryEvent {
  type: 'cache-entry-created' | 'cache-entry-modified' | 'cache-entry-removed' | 'cache-entry-expired';
  key: Buffer;
}
