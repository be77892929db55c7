// Changes to messages that exist: edit, delete, react. Each is optimistic: the cached
// history changes at once, a failure restores it and says why in the status bar, and the
// newest page is fetched again afterwards. What a change sends and what the status bar
// says are the caller's (the intents in ui/actions/); this file owns only the cache.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Message, UpdateMessageParams } from "../../api/schema.ts";
import { useSession } from "../session.tsx";
import { mapMessages } from "./cache.ts";
import { restoreMessages, snapshotMessages, updateConversationMessages } from "./history.ts";
import { keys } from "./keys.ts";

/** A change to one message: what to send, what it looks like meanwhile, what to say. */
export type MessageChange = {
  message: Message;
  /** The PUT's parameters; null deletes the message. */
  params: UpdateMessageParams | null;
  /** The message as it will be (null: gone), shown until the server answers. */
  optimistic: Message | null;
  failure: string;
  success?: string;
};

export function useChangeMessage() {
  const { api, status } = useSession();
  const queryClient = useQueryClient();
  const patch = (conversationId: string, id: string, next: Message | null) =>
    updateConversationMessages(queryClient, conversationId, (data) =>
      mapMessages(data, (m) => (m.id === id ? next : m)),
    );
  return useMutation({
    mutationFn: async ({ message, params }: MessageChange): Promise<Message | null> => {
      if (params) return api.messages.update(message.id, params);
      await api.messages.delete(message.id);
      return null;
    },
    onMutate: async ({ message, optimistic }) => {
      const snapshot = await snapshotMessages(queryClient, message.conversation_id);
      patch(message.conversation_id, message.id, optimistic);
      return { snapshot };
    },
    onError: (error, { message, failure }, context) => {
      if (context) restoreMessages(queryClient, message.conversation_id, context.snapshot);
      status.error(failure, error);
    },
    onSuccess: (result, { message, success }) => {
      if (result) patch(message.conversation_id, result.id, result);
      if (success) status.info(success);
    },
    onSettled: (_r, _e, { message }) =>
      queryClient.invalidateQueries({ queryKey: keys.messages.latest(message.conversation_id) }),
  });
}
