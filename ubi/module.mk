# ubi/ has no programs of its own: mkfs.ubi's main is in mkfs/, and
# flashfs opens UBI images through flashfs/image.c.
