/** Field-by-field checks of the documented JSON shapes. */

export const SQL_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** The User resource of the spec: every field, of its documented type, and nothing secret. */
export function expectUserShape(user: Record<string, unknown>, expected: { id: number; email: string }): void {
  expect(Object.keys(user).sort()).toEqual(
    [
      'id',
      'role_id',
      'plan_id',
      'name',
      'first_name',
      'last_name',
      'country',
      'email',
      'email_verified_at',
      'description',
      'image',
      'created_at',
      'updated_at',
      'created_by',
      'reset_at',
      'status',
      'plan_name',
    ].sort(),
  );
  expect(user.id).toBe(expected.id);
  expect(user.email).toBe(expected.email);
  for (const field of ['role_id', 'plan_id', 'created_by', 'status']) expect(Number.isInteger(user[field])).toBe(true);
  for (const field of ['name', 'first_name', 'last_name']) expect(typeof user[field]).toBe('string');
  expect(user.country).toMatch(/^[A-Z]{2}$/);
  for (const field of ['email_verified_at', 'created_at', 'updated_at']) expect(user[field]).toMatch(SQL_TIMESTAMP);
  expect(user.reset_at).toBeNull();
  expect(user.plan_name).toBe('Free');
  expect(user.description).toBeNull();
  expect(() => new URL(String(user.image))).not.toThrow();
}

/** The error body of every failure. */
export function expectErrorBody(body: Record<string, unknown>, fields: string[] = []): void {
  expect(body.status).toBe(false);
  expect(typeof body.message).toBe('string');
  expect((body.message as string).length).toBeGreaterThan(0);
  for (const field of fields) {
    const errors = body.errors as Record<string, unknown>;
    expect(Array.isArray(errors[field])).toBe(true);
  }
}
