// The plan code's service-role database calls and the rows they answer (a charge, a plan row),
// and the one error a provider that did not answer becomes: what every plan module builds on,
// importing nothing of theirs (plan-flows.ts re-exports it for the functions).
import type { TPaymentMethod } from '@reaction-blocks/contracts/enums';
import type { TPaymentRow } from '@reaction-blocks/contracts/plans';
import { serviceClient } from './clients.ts';
import { HttpError } from './http.ts';

/** A row of public.payments as the RPCs answer it (one definition with the dashboard's). */
export type PaymentRow = TPaymentRow;

export interface ChargeRow {
  id: string;
  user_id: string;
  payment_id: string | null;
  kind: 'first' | 'renewal';
  method: TPaymentMethod;
  provider_ref: string;
  plan: { type: 'basic' | 'custom'; blockLimit: number; responseMonthlyLimit: number };
  price: number;
  amount: number;
  currency: 'KRW' | 'USD';
  status: 'pending' | 'recorded' | 'failed' | 'unscheduled' | 'scheduled' | 'revoked';
  period_start: string;
  period_end: string;
  next_charge_id: string | null;
  schedule_id: string | null;
  error: string | null;
  created_at: string;
  existing?: boolean;
  payment?: PaymentRow | null;
}

/** A database error as PostgREST answers it: PTnnn codes carry the HTTP status. */
export class DbError extends Error {
  constructor(
    readonly code: string | undefined,
    message: string,
    /** The response's status (0: the fetch failed), for inTransit. */
    readonly status?: number,
  ) {
    super(message);
  }
}

export async function rpc<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const { data, error, status } = await serviceClient().rpc(name, args);
  if (error) throw new DbError(error.code, error.message, status);
  return data as T;
}

/** The provider did not answer: nothing is assumed, the queue checks again. */
export const providerUnavailable = () =>
  new HttpError(
    502,
    'provider_unavailable',
    'The payment service did not answer. Nothing changed on your plan; try again in a moment.',
  );
