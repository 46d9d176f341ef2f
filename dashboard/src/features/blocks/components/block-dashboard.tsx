// /dashboard/reaction[/{type}] (reaction blocks) and /dashboard/send[/{mode}] (letter blocks):
// create control, block cards, tag bar. Reaction lists show reaction blocks only, Send lists
// letters; on Send the operator's notice (SITE_SEND_NOTICE, off by default) shows once a session.
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { Spinner } from '../../../components/ui/spinner';
import { isSendMode, paths } from '../../../config/paths';
import {
  isReactionType,
  LETTER_TYPES,
  REACTION_TYPES,
  type BlockRow,
  type BlockType,
  type UserTagRow,
} from '../../../lib/db-types';
import { SendNotice } from './send-notice';
import { failureReason } from '../../../lib/errors';
import { useSession } from '../../../lib/session';
import { breakpoints, useMediaQuery } from '../../../lib/use-media-query';
import { useCreateBlock } from '../api/create-block';
import { useCreateUserTag } from '../api/create-user-tag';
import { useDeleteBlock } from '../api/delete-block';
import { useDuplicateBlock } from '../api/duplicate-block';
import { useBlocks } from '../api/list-blocks';
import { useUserTags } from '../api/list-user-tags';
import { useSetTagActive } from '../api/set-tag-active';
import { useUpdateBlockTags } from '../api/update-block-tags';
import { blockFailure, blockName, filterBlocks, sortBlocks } from '../utils/block-utils';
import { copyText } from '../utils/embed';
import type { CardAction } from './block-card';
import { BlockLinkDialog } from './block-link-dialog';
import { BlockList } from './block-list';
import { CreateBlockControl } from './create-block-control';
import { DeleteBlockDialog } from './delete-block-dialog';
import { TagBar } from './tag-bar';
import { TagDialog } from './tag-dialog';
import { PageHeading } from '../../../components/ui/page-heading';
import { ErrorText } from '../../../components/ui/error-text';
import { Announcement } from '../../../components/ui/announcement';

const NO_TAGS: readonly UserTagRow[] = [];

type DialogState =
  | { kind: 'delete'; block: BlockRow }
  | { kind: 'tag'; block: BlockRow }
  | { kind: 'link'; block: BlockRow }
  | null;

export function BlockDashboard() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { type, mode } = useParams();
  const { pathname } = useLocation();
  const sending = pathname.startsWith(paths.dashboardSend);
  const sendMode = isSendMode(mode) ? mode : undefined;
  const filterType: BlockType | undefined = sending
    ? sendMode && (`${sendMode}_letter` as BlockType)
    : isReactionType(type)
      ? type
      : undefined;
  const kinds: readonly BlockType[] = sending ? LETTER_TYPES : REACTION_TYPES;
  const { user, profile } = useSession();
  const blocksQuery = useBlocks(user?.id);
  const blocks = blocksQuery.data;
  // a failed first read shows an empty list under the message
  const error = blocksQuery.error ? failureReason(blocksQuery.error) : null;
  const tags = useUserTags(user?.id).data ?? NO_TAGS;
  const setTagActive = useSetTagActive(user?.id);
  const createBlock = useCreateBlock();
  const createTag = useCreateUserTag();
  const deleteBlock = useDeleteBlock();
  const duplicateBlock = useDuplicateBlock();
  const updateTags = useUpdateBlockTags();
  const mobile = useMediaQuery(`(max-width: ${breakpoints.mobile}px)`);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [dialog, setDialog] = useState<DialogState>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const remaining = profile ? profile.block_limit - profile.block_count : null;
  const activeTags = useMemo(
    () => tags.filter((tag) => tag.active).map((tag) => tag.label),
    [tags],
  );
  const visible = useMemo(
    () =>
      sortBlocks(
        filterBlocks(
          (blocks ?? []).filter((b) => kinds.includes(b.type as BlockType)),
          filterType,
          activeTags,
        ),
      ),
    [blocks, filterType, activeTags, kinds],
  );

  const publicUrl = (block: BlockRow) =>
    paths.publicBlock(window.location.origin, block.owner_id, block.id);

  const onActivate = (block: BlockRow) => {
    if (mobile) {
      window.open(publicUrl(block), '_blank', 'noopener');
      setNotice(t('shell.mobileMessage'));
      return;
    }
    if (selectedId !== block.id) {
      setSelectedId(block.id);
      return;
    }
    if (!block.deactivated) navigate(paths.work(block.id));
  };

  const onAction = async (action: CardAction, block: BlockRow) => {
    setNotice(null);
    try {
      switch (action) {
        case 'open':
          if (!block.deactivated) navigate(paths.work(block.id));
          break;
        case 'openNewTab':
          window.open(paths.work(block.id), '_blank', 'noopener');
          break;
        case 'copyLink':
          // a refusal is the browser's (no clipboard permission), not the server's
          if (
            await copyText(publicUrl(block)).then(
              () => true,
              () => false,
            )
          )
            setNotice(t('blocks.linkCopied'));
          else setNotice(t('blocks.copyRefused'));
          break;
        case 'openPublic':
          window.open(publicUrl(block), '_blank', 'noopener');
          break;
        case 'changeTag':
          setDialog({ kind: 'tag', block });
          break;
        case 'blockLink':
          setDialog({ kind: 'link', block });
          break;
        case 'duplicate':
          if (remaining !== null && remaining < 1) return;
          await duplicateBlock.mutateAsync({ blockId: block.id });
          break;
        case 'delete':
          setDialog({ kind: 'delete', block });
          break;
      }
    } catch (cause) {
      setNotice(
        t('blocks.actionError', {
          message: blockFailure(cause, t),
        }),
      );
    }
  };

  const onCreate = async (blockType: BlockType) => {
    const { blockId } = await createBlock.mutateAsync({ blockType });
    navigate(paths.work(blockId));
  };

  return (
    <div className="block-dashboard">
      <div className="dashboard-head">
        <PageHeading>
          {sending
            ? sendMode
              ? t(`shell.sendTypes.${sendMode}`)
              : t('shell.send')
            : filterType
              ? t(`blockTypes.${filterType}`)
              : t('shell.reaction')}
        </PageHeading>
        <CreateBlockControl
          remaining={remaining}
          onCreate={onCreate}
          types={kinds}
          // spec: the create buttons of typedream and brunch letters are disabled
          disabledTypes={sending ? ['typedream_letter', 'brunch_letter'] : []}
        />
      </div>
      <p className="mobile-message">{t('shell.mobileMessage')}</p>
      <Announcement>{notice}</Announcement>
      {error ? <ErrorText>{t('blocks.loadError', { message: error })}</ErrorText> : null}
      {blocks === undefined && !error ? (
        <Spinner />
      ) : (
        <BlockList
          blocks={visible}
          filtered={!!filterType || activeTags.length > 0}
          letters={sending}
          selectedId={selectedId}
          canDuplicate={remaining === null || remaining >= 1}
          onActivate={onActivate}
          onAction={(action, block) => void onAction(action, block)}
        />
      )}
      <TagBar
        tags={tags}
        onToggle={(tag) => setTagActive.mutate({ id: tag.id, active: !tag.active })}
      />
      {sending ? <SendNotice /> : null}
      <DeleteBlockDialog
        name={dialog?.kind === 'delete' ? blockName(dialog.block, t) : null}
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await deleteBlock.mutateAsync({ id: dialog.block.id });
        }}
      />
      {dialog?.kind === 'tag' ? (
        <TagDialog
          open
          blockName={blockName(dialog.block, t)}
          initial={dialog.block.tags ?? []}
          tags={tags}
          onCreateTag={async (label) => {
            if (!user) return;
            await createTag.mutateAsync({ userId: user.id, label });
          }}
          onSave={async (next) => {
            await updateTags.mutateAsync({ id: dialog.block.id, tags: next });
          }}
          onClose={() => setDialog(null)}
        />
      ) : null}
      <BlockLinkDialog
        block={dialog?.kind === 'link' ? dialog.block : null}
        onClose={() => setDialog(null)}
      />
    </div>
  );
}
