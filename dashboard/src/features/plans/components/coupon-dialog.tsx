// The plan page's "Use a coupon" dialog: a code checked as use-coupon checks it (ZUseCoupon),
// redeemed, and the server's refusal said in the reader's language.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/ui/form-dialog';
import { TextField } from '../../../components/ui/fields';
import { useSubmit } from '../../../lib/use-submit';
import { useCoupon as redeemCoupon } from '../api/plans';
import { ZUseCoupon } from '../model/plans';
import { planReason } from '../model/messages';

export function CouponDialog({
  onClose,
  onApplied,
}: {
  onClose: () => void;
  onApplied: () => void;
}) {
  const { t } = useTranslation();
  const { t: s } = useTranslation(undefined, { keyPrefix: 'plans.coupon' });
  const [code, setCode] = useState('');
  const { busy, error, setError, run } = useSubmit();
  const parsed = ZUseCoupon.safeParse({ couponId: code });

  return (
    <FormDialog
      title={s('title')}
      onClose={onClose}
      onSubmit={() => {
        if (!parsed.success) return;
        const { couponId } = parsed.data;
        void run(
          async () => {
            await redeemCoupon(couponId);
            onApplied();
          },
          (cause) => planReason(t, cause),
        );
      }}
      submitLabel={s('apply')}
      canSubmit={parsed.success}
      busy={busy}
    >
      <TextField
        label={s('label')}
        name="coupon"
        value={code}
        max={99}
        hint={s('hint')}
        error={error ?? undefined}
        onChange={(value) => {
          setCode(value);
          setError(null);
        }}
      />
    </FormDialog>
  );
}
