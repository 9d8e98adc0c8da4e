// The Conversations page (lazy-loaded): the inbox and one conversation, under /console/conversations.
import { VisuallyHidden } from '@mantine/core';
import { Route, Switch, useParams } from 'wouter';
import { ConversationPage } from './components/conversation-page';
import { Inbox } from './components/inbox';

function One() {
  const { id } = useParams<{ id: string }>();
  return <ConversationPage key={id} id={id} />;
}

export default function ConversationsPage() {
  return (
    <>
      <VisuallyHidden component="h1">Conversations</VisuallyHidden>
      <Switch>
        <Route path="/:id" component={One} />
        <Route path="/" component={Inbox} />
      </Switch>
    </>
  );
}
