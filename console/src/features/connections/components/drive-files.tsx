// Google Drive has no discovery (the API answers 400, as the deployed service does): a file is
// registered by its id, or by a link to it, with a title and its Drive type, then ingested.
import { Alert, Group, Select, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { errorOf, fieldErrors, unplaced } from '../../../components/field-errors';
import { errorText } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { IngestFailed, registeredIds, useImport } from '../api';

const TYPES = [
  { value: 'application/vnd.google-apps.document', label: 'Google Doc' },
  { value: 'application/vnd.google-apps.presentation', label: 'Google Slides' },
  { value: 'application/pdf', label: 'PDF' },
  { value: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', label: 'Word (DOCX)' },
  { value: 'text/html', label: 'HTML' },
  { value: 'text/markdown', label: 'Markdown' },
  { value: 'text/plain', label: 'Plain text' },
];

/** The file id in a Drive or Docs link (`/d/{id}/`, `?id={id}`), else the text as given. */
export function driveFileId(text: string): string {
  const value = text.trim();
  return /\/d\/([\w-]+)/.exec(value)?.[1] ?? /[?&]id=([\w-]+)/.exec(value)?.[1] ?? value;
}

const linkOf = (id: string, mimeType: string) =>
  mimeType === 'application/vnd.google-apps.document'
    ? `https://docs.google.com/document/d/${id}`
    : mimeType === 'application/vnd.google-apps.presentation'
      ? `https://docs.google.com/presentation/d/${id}`
      : `https://drive.google.com/file/d/${id}/view`;

export function DriveFiles({ onImported }: { onImported(ids: string[]): void }) {
  const importing = useImport('googledrive');
  const [file, setFile] = useState('');
  const [title, setTitle] = useState('');
  const [mimeType, setMimeType] = useState<string | null>(TYPES[0]!.value);
  const problems = fieldErrors(importing.error);
  const rest = unplaced(problems, (path) => path === 'resources.0.externalId' || path === 'resources.0.title');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!mimeType) return;
    const externalId = driveFileId(file);
    importing.mutate([{ externalId, title: title.trim(), mimeType, originalUrl: linkOf(externalId, mimeType) }], {
      onSuccess: (result) => {
        setFile('');
        setTitle('');
        onImported(registeredIds(result));
      },
      // The file is a source now even if ingesting it failed: it is followed like one.
      onError: (error) => {
        if (error instanceof IngestFailed) onImported(registeredIds(error.registered));
      },
    });
  };
  return (
    <form aria-label="Import a Drive file" onSubmit={submit}>
      <Stack gap="xs">
        <Group align="start" grow>
          <TextInput
            label="File id or link"
            description="From the file's share link (…/d/FILE_ID/…); the file must be readable by the connection"
            required
            value={file}
            error={errorOf(problems, 'resources.0.externalId')}
            onChange={(e) => setFile(e.currentTarget.value)}
          />
          <TextInput label="Title" required value={title} error={errorOf(problems, 'resources.0.title')} onChange={(e) => setTitle(e.currentTarget.value)} />
          <Select label="Type" data={TYPES} value={mimeType} onChange={setMimeType} allowDeselect={false} required />
        </Group>
        {importing.error && rest.length > 0 && (
          <Alert color="red" role="alert" title={importing.error instanceof IngestFailed ? 'The file was registered, not ingested' : 'The file was not imported'}>
            {problems.fields.size || problems.other.length > 1 ? rest.join('; ') : errorText(importing.error)}
          </Alert>
        )}
        <WriteButton type="submit" loading={importing.isPending} w="fit-content">
          Import file
        </WriteButton>
      </Stack>
    </form>
  );
}
