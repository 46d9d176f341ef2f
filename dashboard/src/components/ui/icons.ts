// The dashboard's one icon set: lucide (ISC licence), imported by name so only these icons are in
// the bundle. Actions and states take their icon from here; the block types theirs in
// block-type-icon.tsx. An icon beside a written or aria-label name is decorative (lucide marks it
// aria-hidden when it has no accessible name of its own).
export {
  ArrowLeft,
  Blocks,
  CircleHelp,
  Download,
  Ellipsis,
  ExternalLink,
  Pencil,
  Plus,
  RotateCw,
  Send,
  Users,
  X,
} from 'lucide-react';
