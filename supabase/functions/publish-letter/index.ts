// publishLetter: the audience send (paid), to the active members with an email of a group
// (`activated`: everyone). Answers {status, reservedCount} at once; every recipient is a delivery
// and a job (_shared/letter/send.ts).
import { ownerHandler } from '../_shared/http.ts';
import { ZPublishLetter } from '@reaction-blocks/contracts/letters';
import { reserveSend } from '../_shared/letter/send.ts';

Deno.serve(
  ownerHandler(ZPublishLetter, ({ body, user }) =>
    reserveSend({
      ownerId: user.id,
      blockId: body.blockId,
      emails: null,
      group: body.group,
      register: false,
    }),
  ),
);
