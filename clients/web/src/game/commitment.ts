// Checks the Jieqi shuffle commitment published at the start against the assignment and salt
// published at the end: SHA-256 of the very string the server hashes.
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export const commitmentInput = (assignment: string, salt: string) => `jieqi-commit-v1|${assignment}|${salt}`;

export async function verifyCommitment(commitment: string, assignment: string, salt: string): Promise<boolean> {
  return (await sha256Hex(commitmentInput(assignment, salt))) === commitment.toLowerCase();
}
