// Form encoding in the bracket notation of the reference requests (contract.md, "Requests"):
//
//   reactions[thumbsup][]=alice     a list of plain values
//   reactions[heart]=               an empty list: sent, with an empty value
//   attachments[0][file_url]=...    a list of objects, by index
//   is_muted=true                   booleans as true / false
//   archived_at=                    null: sent empty, which unsets the field
//
// Undefined values are left out. Brackets stay literal; everything inside a key segment
// and every value is percent-encoded, so a reaction name such as `+1` survives
// (`reactions[%2B1][]=alice`). Hand-written rather than `qs.stringify`, which drops
// empty lists and cannot index lists of objects while leaving lists of values unindexed.

export type FormValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly FormValue[]
  | { readonly [key: string]: FormValue };

/** `application/x-www-form-urlencoded` body (or query string, without `?`) for `params`. */
export function encodeForm(params: { readonly [key: string]: FormValue }): string {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    appendPairs(pairs, encodeURIComponent(key), value);
  }
  return pairs.join("&");
}

function appendPairs(pairs: string[], key: string, value: FormValue): void {
  if (value === undefined) return;
  if (value === null) {
    pairs.push(`${key}=`);
    return;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      pairs.push(`${key}=`);
      return;
    }
    value.forEach((item: FormValue, index) => {
      const nested = item !== null && typeof item === "object";
      appendPairs(pairs, nested ? `${key}[${index}]` : `${key}[]`, item);
    });
    return;
  }
  if (typeof value === "object") {
    for (const [name, item] of Object.entries(value as { readonly [key: string]: FormValue })) {
      appendPairs(pairs, `${key}[${encodeURIComponent(name)}]`, item);
    }
    return;
  }
  pairs.push(`${key}=${encodeURIComponent(scalar(value))}`);
}

function scalar(value: string | number | boolean): string {
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new TypeError(`Cannot send ${value} as a form value.`);
  }
  return String(value);
}
