/** Who is calling: the user a valid access token belongs to, and that token. */
export interface Caller {
  userId: number;
  /** null when the caller acts through something other than an access token (an inbound webhook token). */
  tokenId: number | null;
}
