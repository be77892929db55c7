// Uploaded files in PostgreSQL: a row per file, its bytes in chunks (store.ts, `files`), so
// that any instance serves a file another took in.
import type postgres from "postgres";
import type { Store, StoredFile } from "../store.ts";

export function createFileStore(sql: postgres.Sql): Store["files"] {
  const used = async (ownerId: string) => {
    const [row] = await sql<{ used: number }[]>`
      SELECT coalesce(sum(size), 0)::bigint AS used FROM files WHERE owner_id = ${ownerId}`;
    return Number(row?.used ?? 0);
  };
  return {
    async begin(file) {
      await sql`
        INSERT INTO files (id, owner_id, filename, file_type, created_at)
        VALUES (${file.id}, ${file.owner_id}, ${file.filename}, ${file.file_type}, ${file.created_at})`;
    },
    async append(id, ownerId, seq, bytes) {
      const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      await sql.begin(async (tx) => {
        await tx`INSERT INTO file_chunks (file_id, seq, data) VALUES (${id}, ${seq}, ${data})`;
        await tx`UPDATE files SET size = size + ${bytes.byteLength} WHERE id = ${id}`;
      });
      return used(ownerId);
    },
    async finish(id) {
      await sql`UPDATE files SET finished = true WHERE id = ${id}`;
    },
    async abandon(id) {
      await sql`DELETE FROM files WHERE id = ${id}`;
    },
    used,
    async get(id) {
      const [row] = await sql<StoredFile[]>`SELECT * FROM files WHERE id = ${id}`;
      return row && { ...row, size: Number(row.size), created_at: Number(row.created_at) };
    },
    async chunk(id, seq) {
      const [row] = await sql<{ data: Buffer }[]>`
        SELECT data FROM file_chunks WHERE file_id = ${id} AND seq = ${seq}`;
      return row?.data;
    },
    async dropUnfinished(before) {
      const rows = await sql`DELETE FROM files WHERE NOT finished AND created_at < ${before}`;
      return rows.count;
    },
  };
}
