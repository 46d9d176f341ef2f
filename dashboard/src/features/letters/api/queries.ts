// The letters' reads as queries, under ['letters', owner]: the verified senders to pick from, the
// emails left this month, the audience groups to send to, and a letter's sends (history).
import { useQuery } from '@tanstack/react-query';
import { usePagedQuery } from '../../../lib/use-paged-query';
import {
  listNotSentReasons,
  listPublishes,
  listSendGroups,
  listSenders,
  remainingEmails,
  type PublishRow,
} from './letters';

export const letterKeys = {
  all: (ownerId: string) => ['letters', ownerId] as const,
  /** The letter workspace's first read (lib/use-draft-query.ts). */
  block: (ownerId: string, blockId: string) => ['letters', ownerId, 'block', blockId] as const,
  senders: (ownerId: string) => ['letters', ownerId, 'senders'] as const,
  quota: (ownerId: string) => ['letters', ownerId, 'quota'] as const,
  groups: (ownerId: string) => ['letters', ownerId, 'groups'] as const,
  history: (ownerId: string, blockId: string) => ['letters', ownerId, 'history', blockId] as const,
  notSent: (ownerId: string, publishId: string, count: number) =>
    ['letters', ownerId, 'not-sent', publishId, count] as const,
};

/** History page size (spec: 10 sends at a time). */
export const HISTORY_PAGE_SIZE = 10;

export function useSenders(ownerId: string | undefined) {
  return useQuery({
    queryKey: letterKeys.senders(ownerId ?? ''),
    queryFn: ({ signal }) => listSenders(signal),
    enabled: !!ownerId,
  });
}

/** Read whenever the send dialog opens: sends since the last look used some up. */
export function useRemainingEmails(ownerId: string) {
  return useQuery({
    queryKey: letterKeys.quota(ownerId),
    queryFn: ({ signal }) => remainingEmails(ownerId, signal),
    staleTime: 0,
  });
}

export function useSendGroups(ownerId: string, paid: boolean) {
  return useQuery({
    queryKey: letterKeys.groups(ownerId),
    queryFn: ({ signal }) => listSendGroups(signal),
    enabled: paid,
    staleTime: 0,
  });
}

/** A letter's sends, newest first; the counts move with the provider's events, so every 5 s. */
export function useLetterHistory(ownerId: string, blockId: string) {
  return usePagedQuery<PublishRow, string | undefined>({
    queryKey: letterKeys.history(ownerId, blockId),
    fetchPage: (before, signal) => listPublishes(blockId, before, signal),
    initialPageParam: undefined,
    nextPageParam: (last) => last[last.length - 1]!.created_at,
    pageSize: HISTORY_PAGE_SIZE,
    refetchInterval: 5000,
  });
}

/** Why mails of a send were not sent; read again when its failed and skipped counts move. */
export function useNotSentReasons(ownerId: string, publishId: string, notSent: number) {
  return useQuery({
    queryKey: letterKeys.notSent(ownerId, publishId, notSent),
    queryFn: ({ signal }) => listNotSentReasons(publishId, signal),
    enabled: notSent > 0,
  });
}
