// /audience: the owner's audience, in the signed-in shell.
import { AudiencePage, registerAudienceTranslations } from '../../features/audience';

registerAudienceTranslations();

export default function AudienceRoute() {
  return <AudiencePage />;
}
