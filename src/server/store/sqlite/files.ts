// Uploaded files in SQLite: a row per file, its bytes in chunks (store.ts, `files`).
import type { DatabaseSync } from "node:sqlite";
import type { NewFile, StoredFile } from "../store.ts";
import { transaction } from "./db.ts";

type FileRow = Omit<StoredFile, "finished"> & { finished: number };

export function createFileStore(db: DatabaseSync) {
  const insert = db.prepare(
    `INSERT INTO files (id, owner_id, filename, file_type, created_at) VALUES (?, ?, ?, ?, ?)`,
  );
  const addChunk = db.prepare("INSERT INTO file_chunks (file_id, seq, data) VALUES (?, ?, ?)");
  const grow = db.prepare("UPDATE files SET size = size + ? WHERE id = ?");
  const used = db.prepare("SELECT coalesce(sum(size), 0) AS used FROM files WHERE owner_id = ?");
  const finish = db.prepare("UPDATE files SET finished = 1 WHERE id = ?");
  const remove = db.prepare("DELETE FROM files WHERE id = ?");
  const get = db.prepare("SELECT * FROM files WHERE id = ?");
  const chunk = db.prepare("SELECT data FROM file_chunks WHERE file_id = ? AND seq = ?");
  const dropUnfinished = db.prepare("DELETE FROM files WHERE finished = 0 AND created_at < ?");

  const usedBy = (ownerId: string) => (used.get(ownerId) as { used: number }).used;
  return {
    begin(file: NewFile): void {
      insert.run(file.id, file.owner_id, file.filename, file.file_type, file.created_at);
    },
    append(id: string, ownerId: string, seq: number, bytes: Uint8Array): number {
      return transaction(db, () => {
        addChunk.run(id, seq, bytes);
        grow.run(bytes.byteLength, id);
        return usedBy(ownerId);
      });
    },
    finish: (id: string) => void finish.run(id),
    abandon: (id: string) => void remove.run(id),
    used: usedBy,
    get(id: string): StoredFile | undefined {
      const row = get.get(id) as FileRow | undefined;
      return row && { ...row, finished: row.finished === 1 };
    },
    chunk(id: string, seq: number): Uint8Array | undefined {
      return (chunk.get(id, seq) as { data: Uint8Array } | undefined)?.data;
    },
    dropUnfinished: (before: number) => Number(dropUnfinished.run(before).changes),
  };
}
