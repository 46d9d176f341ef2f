// sendLetter: the manual send, to at most 100 typed-in addresses (registerAudience, a paid
// feature, adds them to the owner's audience). Answers with the reserved count at once; every
// recipient is a delivery and a job (_shared/letter/send.ts).
import { ownerHandler } from '../_shared/http.ts';
import { ZSendLetter } from '@reaction-blocks/contracts/letters';
import { reserveSend } from '../_shared/letter/send.ts';

Deno.serve(
  ownerHandler(ZSendLetter, ({ body, user }) =>
    reserveSend({
      ownerId: user.id,
      blockId: body.blockId,
      emails: body.emailList,
      group: null,
      register: body.registerAudience,
    }),
  ),
);
