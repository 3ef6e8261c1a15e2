"""What the wiki outbox tells the thread: a write delayed (the wiki down, its folder not
writable), the kept edits caught up, a person's edit kept, a write refused for good. The outbox
hands the engine an event (`WikiReported`) and the engine turns it into the thread's notice, in
order with the debate's other effects."""
