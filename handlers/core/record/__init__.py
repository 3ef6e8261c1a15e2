"""The debate's record: how a turn's reply shows on its pages and in its export file
(`shown`), and the hash chain over every turn that lets anyone check the record (`chain`)."""
