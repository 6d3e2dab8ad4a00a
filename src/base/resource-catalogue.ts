/**
 * The catalogue a static resource is listed in: its URI's scheme and authority, lower-cased
 * (`docs://guides/a.md` is in `docs://guides`, `file:///x/y` in `file://`, `urn:a:b` in `urn:`).
 * Null for a string that is no URI.
 */
export function resourceCatalogue(uri: string): string | null {
  const m = /^([a-z][a-z0-9+.-]*:)(\/\/[^/?#]*)?/i.exec(uri);
  return m ? `${m[1]}${m[2] ?? ''}`.toLowerCase() : null;
}
