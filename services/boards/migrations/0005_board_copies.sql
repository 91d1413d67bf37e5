-- Course copies (issue 29, board.duplicate): a board made for a participant from a teacher's board
-- records its source. It is the teacher's material, so it counts neither against the owner's
-- maxBoards (create/restore) nor in the read-only rank of planLimits; the dashboard can tell it
-- apart. No foreign key: the copy outlives its source.
ALTER TABLE boards ADD COLUMN copied_from text;
