// A button that changes data: disabled, and saying why, when the key is read-only.
import { Button, type ButtonProps } from '@mantine/core';
import type { ComponentPropsWithoutRef } from 'react';
import { useSession } from '../app/session';

type Props = ButtonProps & Omit<ComponentPropsWithoutRef<'button'>, keyof ButtonProps>;

export function WriteButton(props: Props) {
  const { canWrite } = useSession();
  if (canWrite) return <Button {...props} />;
  return <Button {...props} disabled title="This key is read-only" aria-description="This key is read-only" />;
}
