import { hasLength } from '../platform/objects';

/** The one rule for a person's name (sign-up, the CLI, profile changes): 1 to 200 characters once trimmed. Null when it holds. */
export function personNameProblem(name: string): string | null {
  return hasLength(name, 1, 200) ? null : 'The name must be from 1 to 200 characters.';
}
