// Access tokens: high-entropy random strings, stored only as their SHA-256 (a stolen
// database gives no way to sign in). A lookup hashes the presented token and finds the
// row by that hash; 192 random bits need no slow hash or salt.
import { createHash, randomBytes } from "node:crypto";

export const newToken = () => `prly_${randomBytes(24).toString("base64url")}`;

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
