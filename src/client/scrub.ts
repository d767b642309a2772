// Keeps the API key out of every text the client hands back (failure reasons, body excerpts):
// a misconfigured proxy may echo the Authorization header into its error page.

export const REDACTED = '[redacted key]';

/** Replaces every occurrence of `secret`. Secrets shorter than 4 characters are left alone: they would shred ordinary words. */
export function scrubSecret(text: string, secret: string | null | undefined): string {
  if (!secret || secret.length < 4) return text;
  return text.split(secret).join(REDACTED);
}

/** One line of at most `max` characters from an untrusted body: control characters and runs of whitespace become one space. */
export function excerpt(text: string, max = 200): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\s]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
