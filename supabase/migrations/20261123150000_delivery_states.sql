-- Two more states of a letter delivery (issue 11): `skipped` (the address unsubscribed or was
-- suppressed between the reservation and the send, or the sender was suspended meanwhile) and
-- `failed` (the provider refused the mail for good). A file of its own: an enum value added in a
-- transaction cannot be used before that transaction commits.
alter type public.delivery_status add value if not exists 'skipped';
alter type public.delivery_status add value if not exists 'failed';
