import type { Context } from 'koa';
import { type ConfigType, parseConfigType } from '../model/cache-config';
import { type AdminFlag, type OpFlags, parseAdminFlags, parseEntryFlags } from '../model/flags';
import type { MediaType } from '../model/media/media-type';
import type { HeaderDate, ReadPreconditions } from '../model/preconditions';
import { requestMediaType } from './negotiate';

/**
 * The request headers the API reads, each read here once and parsed into the value the services
 * take: numbers, epoch-ms dates, media types, flags (docs/reference/data-plane.md#request-headers).
 * An empty header reads as an absent one. A value that does not parse answers what it answered
 * before, where it did: flags and media types at once, a date only when the conditions are
 * evaluated (src/model/preconditions.ts), an expiration or `min-fresh` not at all (it is ignored).
 */

/** A request header (`name` in lower case) as sent; undefined when absent or empty. */
export function headerText(ctx: Context, name: string): string | undefined {
  const v = ctx.req.headers[name];
  return v === undefined || v === '' ? undefined : (v as string);
}

/** `flags` of an entry operation (docs/reference/data-plane.md#flags); 400 for an unknown name. */
export function entryFlags(ctx: Context): OpFlags {
  return parseEntryFlags(headerText(ctx, 'flags'));
}

/** `flags` of a cache create or update (`VOLATILE`, `UPDATE`); 400 for an unknown name. */
export function adminFlags(ctx: Context): ReadonlySet<AdminFlag> {
  return parseAdminFlags(headerText(ctx, 'flags'));
}

/** Content-Type of an entry body; undefined (`*∕*`) when absent; 400 when it does not parse. */
export function contentType(ctx: Context): MediaType | undefined {
  return requestMediaType(headerText(ctx, 'content-type'));
}

/** Key-Content-Type: the type of the key in the path; undefined when absent; 400 when it does not parse. */
export function keyContentType(ctx: Context): MediaType | undefined {
  return requestMediaType(headerText(ctx, 'key-content-type'));
}

/** Content-Type of a configuration body (docs/reference/management-plane.md#cache-create); never refused here. */
export function configContentType(ctx: Context): ConfigType | undefined {
  const text = headerText(ctx, 'content-type');
  return text === undefined ? undefined : parseConfigType(text);
}

/** The expiration an entry write asks for, in whole seconds (docs/reference/data-plane.md#expiration). */
export interface RequestedExpiry {
  timeToLiveSeconds: number | undefined;
  maxIdleTimeSeconds: number | undefined;
}

export function requestedExpiry(ctx: Context): RequestedExpiry {
  return {
    timeToLiveSeconds: parseSeconds(headerText(ctx, 'timetoliveseconds')),
    maxIdleTimeSeconds: parseSeconds(headerText(ctx, 'maxidletimeseconds')),
  };
}

/** A number of seconds read like Java's Long.valueOf; anything else counts as absent (docs/reference/data-plane.md#request-headers). */
export function parseSeconds(text: string | undefined): number | undefined {
  if (text === undefined || !/^[+-]?\d{1,15}$/.test(text.trim())) return undefined;
  return Number(text.trim());
}

/** The conditions of an entry read (docs/reference/data-plane.md#conditional-reads). */
export function readPreconditions(ctx: Context): ReadPreconditions {
  return {
    ifNoneMatch: headerText(ctx, 'if-none-match'), ifMatch: headerText(ctx, 'if-match'),
    ifModifiedSince: headerDate(ctx, 'if-modified-since'), ifUnmodifiedSince: headerDate(ctx, 'if-unmodified-since'),
  };
}

/** A date header; undefined when absent. */
export function headerDate(ctx: Context, name: string): HeaderDate | undefined {
  const text = headerText(ctx, name);
  return text === undefined ? undefined : parseHeaderDate(text);
}

/** Epoch ms of an HTTP date (or any form `Date.parse` reads), else the text that is no date. */
export function parseHeaderDate(text: string): HeaderDate {
  const t = Date.parse(text);
  return Number.isNaN(t) ? { unreadable: text } : t;
}

/** `min-fresh=N` of Cache-Control, in seconds; undefined when absent or not a number. */
export function minFreshSeconds(ctx: Context): number | undefined {
  return parseMinFresh(headerText(ctx, 'cache-control'));
}

export function parseMinFresh(cacheControl: string | undefined): number | undefined {
  const seconds = cacheControl === undefined ? undefined : /min-fresh=(\d+)/.exec(cacheControl)?.[1];
  return seconds === undefined ? undefined : Number(seconds);
}
