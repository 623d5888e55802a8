import type { TextLocation } from './text-location';

/** A value as the document wrote it, before the schema gives it a type. */
export type RawValue = string | number | boolean | string[];

export interface RawAttribute {
  name: string;
  value: RawValue;
  location: TextLocation;
}

/** One element as read from XML, JSON or YAML, names already in kebab-case. */
export interface RawElement {
  name: string;
  attributes: RawAttribute[];
  children: RawElement[];
  location: TextLocation;
}

export interface RawDocument {
  root: RawElement;
  name?: string;
}
