// The JSON the server sends: exactly the fields of spec sections 2.1 to 2.4 and contract.md.
// test/server checks every response against the shared zod schemas in src/api/schema.ts.

export type ContactJson = {
  id: string;
  username: string;
  phone_number: string | null;
  avatar_url: string | null;
  last_active_at: number | null;
  created_at: number;
};

/** `{ "<reaction_name>": ["<username>", ...] }` */
export type ReactionJson = Record<string, string[]>;

export type AttachmentJson = {
  id: string;
  message_id: string;
  filename: string | null;
  file_url: string;
  file_type: string | null;
  file_size: number | null;
  created_at: number;
};

export type MessageJson = {
  id: string;
  conversation_id: string;
  contact: ContactJson;
  message: string;
  reactions: ReactionJson[];
  attachments: AttachmentJson[];
  read_at: number | null;
  created_at: number;
  updated_at: number | null;
};

export type ConversationJson = {
  id: string;
  contact_id: string | null;
  group_id: string | null;
  pinned_message_id: string | null;
  is_pinned: boolean;
  is_muted: boolean;
  last_active_at: number | null;
  last_opened_at: number | null;
  created_at: number;
  archived_at: number | null;
};

export type PageJson<T> = { has_more: boolean; data: T[] };

export type DeletedJson = { id: string; deleted: true };
