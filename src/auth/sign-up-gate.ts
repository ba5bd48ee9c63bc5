/**
 * Who may sign up, decided by the instance's sign-up mode and its invitations (src/admin implements it). The
 * account is made inside the gate's transaction, so an invitation is used by exactly one account.
 */
export interface SignUpGate {
  /** Makes the account with `create` when sign-up admits this e-mail (and invitation code); refuses it otherwise. */
  admit<T extends { id: number }>(email: string, invitationCode: string | null, create: () => Promise<T>): Promise<T>;
}
