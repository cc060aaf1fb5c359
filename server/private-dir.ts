/**
 * Folders the server writes (the embedded database, the generated signing secret, the mail drop)
 * hold personal data and secrets: they are made readable by the server's user alone (0700),
 * whatever the umask, and an existing one the server owns is narrowed to that.
 */
import { chmod, mkdir } from "node:fs/promises";

export const PRIVATE_DIR_MODE = 0o700;

export async function makePrivateDir(dir: string) {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  try {
    await chmod(dir, PRIVATE_DIR_MODE);
  } catch (error) {
    // A folder of another user's that the server may still write (set up so by its operator).
    if ((error as NodeJS.ErrnoException).code !== "EPERM") throw error;
  }
}
