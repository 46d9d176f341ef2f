// The confirmation link mailed to a sender address leads to /profile/email?confirm=<token>
// (signed in first if need be: the login comes back here). The token leaves the address bar at
// once and is sent to confirm-mail-verify once, even when React mounts the page twice.
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { messageOf } from '../../../lib/errors';
import { confirmMailVerify } from '../api/sender-emails';

export type ConfirmResult =
  { state: 'verified' | 'awaiting_provider'; email: string } | { state: 'failed'; reason: string };

/** Tokens already sent, so a second mount does not spend (and fail on) the same link. */
const sent = new Map<string, Promise<ConfirmResult>>();

function confirmOnce(token: string): Promise<ConfirmResult> {
  let result = sent.get(token);
  if (!result) {
    result = confirmMailVerify(token).then(
      (data): ConfirmResult => ({ state: data.state, email: data.email }),
      (cause: unknown): ConfirmResult => ({ state: 'failed', reason: messageOf(cause) }),
    );
    sent.set(token, result);
  }
  return result;
}

/** The outcome of the link this page was opened with (null while none or still confirming). */
export function useConfirmLink(onConfirmed: () => void): {
  confirming: boolean;
  result: ConfirmResult | null;
} {
  const [params, setParams] = useSearchParams();
  // the link is followed into a fresh page: its token is the one to spend
  const [token] = useState(() => params.get('confirm'));
  const [result, setResult] = useState<ConfirmResult | null>(null);
  const confirmed = useRef(onConfirmed);
  useEffect(() => {
    confirmed.current = onConfirmed;
  });

  useEffect(() => {
    if (!token) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('confirm');
        return next;
      },
      { replace: true },
    );
    let current = true;
    void confirmOnce(token).then((outcome) => {
      if (!current) return;
      setResult(outcome);
      if (outcome.state !== 'failed') confirmed.current();
    });
    return () => {
      current = false;
    };
  }, [token, setParams]);

  return { confirming: token !== null && result === null, result };
}
