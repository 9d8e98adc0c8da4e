// Adding sources: web pages by URL (one per line) and a file upload.
import { Anchor, Button, FileInput, Group, Paper, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'wouter';
import { ErrorState } from '../../../components/states';
import { WriteButton } from '../../../components/write-button';
import { useAddUrls, useUpload } from '../api';

export function AddSources() {
  const addUrls = useAddUrls();
  const upload = useUpload();
  const [urls, setUrls] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [title, setTitle] = useState('');
  return (
    <Paper withBorder p="sm">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h5">
          Add sources
        </Title>
        <Group gap="md">
          <Anchor component={Link} href="/crawl" size="sm">
            Crawl a site and pick its pages
          </Anchor>
          <Anchor component={Link} href="~/console/connections" size="sm">
            Import from a provider
          </Anchor>
        </Group>
      </Group>
      <Group align="start" grow>
        <form
          aria-label="Add web pages"
          onSubmit={(e) => {
            e.preventDefault();
            const list = urls.split('\n').map((u) => u.trim()).filter(Boolean);
            addUrls.mutate(list, { onSuccess: () => setUrls('') });
          }}
        >
          <Stack gap="xs">
            <Textarea label="Web page URLs" description="One per line" autosize minRows={2} required value={urls} onChange={(e) => setUrls(e.currentTarget.value)} />
            {addUrls.error && <ErrorState error={addUrls.error} title="The pages were not added" />}
            <WriteButton type="submit" loading={addUrls.isPending} w="fit-content">
              Add pages
            </WriteButton>
          </Stack>
        </form>
        <form
          aria-label="Upload a file"
          onSubmit={(e) => {
            e.preventDefault();
            if (file) upload.mutate({ file, title: title.trim() || undefined }, { onSuccess: () => (setFile(null), setTitle('')) });
          }}
        >
          <Stack gap="xs">
            <FileInput label="File" description="PDF, DOCX, HTML, Markdown or text" required value={file} onChange={setFile} clearable />
            <TextInput label="Title (optional)" value={title} onChange={(e) => setTitle(e.currentTarget.value)} />
            {upload.error && <ErrorState error={upload.error} title="The file was not uploaded" />}
            <Group>
              <WriteButton type="submit" loading={upload.isPending} disabled={!file}>
                Upload
              </WriteButton>
              {file && (
                <Button variant="subtle" onClick={() => setFile(null)}>
                  Clear
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      </Group>
    </Paper>
  );
}
