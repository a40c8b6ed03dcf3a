/*
 * image: is an image file gnuplot wrote whole?  gnuplot's cairo terminals
 * exit 0 when their writes fail (a full disk, a file-size limit), so its
 * exit status cannot say; the file's own structure can, read back from
 * the descriptor we gave gnuplot:
 *
 *   PNG  the signature, then chunks (length, type, data, CRC-32) from
 *        IHDR to IEND, each CRC right, IEND ending the file exactly;
 *   SVG  an <svg element, the file ending with </svg> (blanks after);
 *   PDF  %PDF- first, the file ending with %%EOF (blanks after).
 *
 * Any other extension: at least one byte.
 */
#ifndef PL_IMAGE_H
#define PL_IMAGE_H

#include "lib/diag.h"

/*
 * fd: the image, open for reading (read with pread: its offset is left
 * alone); name: its file name (the extension picks the check); path: how
 * messages name it.  SR_EIO when it is incomplete or not what its
 * extension says, the message naming what is missing and, where the
 * file system is full or a file-size limit (ulimit -f) was reached, that.
 */
int pl_image_check(int fd, const char *name, const char *path,
		   struct sr_diag *d);

#endif
