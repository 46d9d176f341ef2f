-- Hand-written (data, before the schema change that follows it): a yes to reply notifications
-- was kept per address for the whole platform (mail_consents.owner_id null), so anyone who named
-- an address someone had confirmed got replies mailed to it (issue 17, eighth hostile review).
-- A reply consent is now per address, owner and commenter (schemas/mail-consent.sql), and such a
-- row does not say which commenter asked or on whose blocks, so it cannot be carried over: these
-- rows go (confirmed or not; a link still out is then refused as unknown). The next comment that
-- names the address asks it again, for that commenter and owner. Letters consents (owner_id set)
-- stay as they are: they were per owner already.
delete from private.mail_consents where owner_id is null;
