/**
 * Whether a request's Accept-Encoding allows a gzip body (RFC 9110 section 12.5.3): gzip (or its
 * alias x-gzip) named with a weight above zero, or "*" with a weight above zero when gzip is not
 * named. For answers the server keeps already compressed; every other answer is left to
 * @fastify/compress, which makes the same choice.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let named: boolean | undefined;
  let anyOther = false;
  for (const part of header.split(",")) {
    const [coding = "", ...parameters] = part.split(";").map((piece) => piece.trim().toLowerCase());
    const weight = parameters.find((parameter) => parameter.startsWith("q="));
    const allowed = weight === undefined || Number(weight.slice(2)) > 0;
    if (coding === "gzip" || coding === "x-gzip") named = (named ?? false) || allowed;
    else if (coding === "*") anyOther = allowed;
  }
  return named ?? anyOther;
}
