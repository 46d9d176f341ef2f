// An email address as every part checks it: the browser's forms, the edge functions, and the
// database (private.is_valid_email and the columns' check constraints use the same rule, which
// supabase/tests/contracts.test.ts holds them to).
import { z } from 'zod';
import { isEmail } from './limits.ts';

/** A string that is an address by the database's rule; `error` otherwise. */
export const emailAddress = (error: string) => z.string().refine(isEmail, { error });
