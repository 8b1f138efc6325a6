# tree/: the source-tree model both builders share.
tree_USES := compress common
