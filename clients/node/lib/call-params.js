// Building a shop method's params: optional members left out, and `_meta.actor` for the calls that record it.

/** `params` with `_meta.actor` when `options.actor` is set (the client adds its own `_meta` members). */
export function acting(params, options) {
  return options?.actor === undefined ? params : { ...params, _meta: { actor: options.actor } };
}

/** Drops members whose value is `undefined`, so optional params are omitted, not sent as null. */
export function definedMembers(object) {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}
