// SPDX-License-Identifier: GPL-2.0-only
/*
 * negcam.ko shared frames: a loop's producer and its first consumer
 * write and read the same memory, so a frame crosses the loop with no
 * copy (docs/loopback.md, "Shared buffers").
 *
 * The output node and capture node 0 of a loop allocate MMAP memory
 * through negcam_share_memops: vb2_vmalloc's memory, behind a small
 * reference. The producer's buffer k and the consumer's buffer k + 2 go
 * together: when one side allocates its buffer of the pair with the size
 * the other's already has, the two share that memory (negcam_buffer.peer
 * links them). The consumer's buffers 0 and 1 are always its own: it gets
 * the placeholder, and copies of frames it cannot get shared, in those.
 *
 * Who may touch shared memory (under the capture node's slock):
 *  - the producer writes its buffer while the loop has handed it back,
 *    and the loop hands it back only while the consumer's buffer holds no
 *    frame (negcam_buffer.lent: from the hand-over to the consumer's next
 *    QBUF; negcam-loop-frames.c);
 *  - the consumer reads a frame in its buffer from DQBUF to QBUF, so only
 *    after the producer queued it there and before the producer gets the
 *    buffer back;
 *  - the driver never writes it: the placeholder and copies of other
 *    producer frames go to the consumer's own buffers only
 *    (negcam_share_writable), and an output buffer keeps what the
 *    producer wrote, as on any output device.
 * So nobody ever reads a frame that is being written, and a frame the
 * producer queues in its buffer k reaches the consumer as its buffer k + 2
 * without a copy. One exception vb2 imposes: at the producer's STREAMOFF
 * every buffer goes back to it at once, so a producer that then writes
 * into one whose frame the consumer still reads changes that frame.
 */
#include <linux/kref.h>
#include <linux/slab.h>
#include <media/videobuf2-vmalloc.h>

#include "negcam.h"
#include "framegen.h"

/* Memory that one or two vb2 buffers use: vb2_vmalloc's buffer. */
struct negcam_shmem {
	struct kref ref;
	void *vpriv;
	unsigned long size;
};

/*
 * The plane of one MMAP vb2 buffer: the memory, and whose buffer it is.
 * vb2 hands some operations (num_users) a plane's private data without
 * saying its memory type; @magic tells this from vb2_vmalloc's USERPTR
 * and DMABUF data, whose first field is a kernel address of theirs.
 */
struct negcam_memref {
	const void *magic;
	struct negcam_shmem *mem;
	struct negcam_buffer *buf;
};

struct vb2_mem_ops negcam_share_memops;

/* vb2_vmalloc's private data behind @priv, whatever its memory type. */
static void *negcam_share_vpriv(void *priv)
{
	struct negcam_memref *ref = priv;

	return ref->magic == &negcam_share_memops ? ref->mem->vpriv : priv;
}

static struct negcam_dev *negcam_share_dev(struct negcam_buffer *buf)
{
	return vb2_get_drv_priv(buf->vb.vb2_buf.vb2_queue);
}

/* The capture node of the pair: its slock guards the links. */
static struct negcam_dev *negcam_share_lead(struct negcam_buffer *buf)
{
	struct negcam_dev *dev = negcam_share_dev(buf);

	return dev->qi == NC_OUTPUT ? dev->share_node : dev;
}

/*
 * The buffer of the other side that @vb (of @size bytes) may share memory
 * with, or NULL. Under loop->lock: both queues' buffer lists are stable.
 */
static struct negcam_buffer *negcam_share_candidate(struct vb2_buffer *vb,
						    unsigned long size)
{
	struct negcam_dev *dev = vb2_get_drv_priv(vb->vb2_queue);
	struct negcam_dev *other = dev->share_node;
	unsigned int k = vb->index;
	struct negcam_memref *ref;
	struct vb2_buffer *pvb;

	if (dev->qi == NC_OUTPUT)
		k += NEGCAM_LOOP_OWN_BUFFERS;
	else if (k >= NEGCAM_LOOP_OWN_BUFFERS)
		k -= NEGCAM_LOOP_OWN_BUFFERS;
	else
		return NULL;
	if (!other || k >= other->queue.num_buffers ||
	    other->queue.memory != VB2_MEMORY_MMAP)
		return NULL;
	pvb = other->queue.bufs[k];
	if (!pvb || pvb->num_planes != 1 || !pvb->planes[0].mem_priv)
		return NULL;
	ref = pvb->planes[0].mem_priv;
	if (ref->mem->size != size || ref->buf->peer)
		return NULL;
	return ref->buf;
}

/*
 * Link @buf, just allocated, to @peer. A new output buffer links only to a
 * capture buffer queued to the driver now: one the consumer holds (and
 * reads) must not become the producer's to write. A new capture buffer
 * links to the producer's at once: the consumer reads it only once a
 * frame was handed over in it, and until its first QBUF it is not the
 * driver's to write.
 */
static bool negcam_share_link(struct negcam_buffer *buf,
			      struct negcam_buffer *peer)
{
	struct negcam_dev *lead = negcam_share_lead(buf);
	bool ok;

	spin_lock(&lead->slock);
	ok = !peer->peer && (peer->in_driver ||
			     negcam_share_dev(buf)->qi == NC_CAPTURE);
	if (ok) {
		buf->peer = peer;
		peer->peer = buf;
		buf->last_frame = NC_FRAME_NONE;
		peer->last_frame = NC_FRAME_NONE;
	}
	spin_unlock(&lead->slock);
	return ok;
}

static void negcam_share_unlink(struct negcam_buffer *buf)
{
	struct negcam_dev *lead = negcam_share_lead(buf);

	spin_lock(&lead->slock);
	buf->peer->last_frame = NC_FRAME_NONE;
	buf->peer->peer = NULL;
	buf->peer = NULL;
	spin_unlock(&lead->slock);
}

static void *negcam_share_alloc(struct vb2_buffer *vb, struct device *dev,
				unsigned long size)
{
	struct negcam_buffer *buf = to_negcam_buffer(vb), *peer;
	struct negcam_memref *ref = kzalloc(sizeof(*ref), GFP_KERNEL);
	struct negcam_shmem *mem;

	if (!ref)
		return ERR_PTR(-ENOMEM);
	ref->magic = &negcam_share_memops;
	ref->buf = buf;
	peer = negcam_share_candidate(vb, size);
	if (peer && negcam_share_link(buf, peer)) {
		ref->mem = ((struct negcam_memref *)
			    peer->vb.vb2_buf.planes[0].mem_priv)->mem;
		kref_get(&ref->mem->ref);
		return ref;
	}
	mem = kzalloc(sizeof(*mem), GFP_KERNEL);
	if (!mem)
		goto fail;
	mem->vpriv = vb2_vmalloc_memops.alloc(vb, dev, size);
	if (IS_ERR_OR_NULL(mem->vpriv)) {
		void *err = mem->vpriv ?: ERR_PTR(-ENOMEM);

		kfree(mem);
		kfree(ref);
		return err;
	}
	kref_init(&mem->ref);
	mem->size = size;
	ref->mem = mem;
	return ref;
fail:
	kfree(ref);
	return ERR_PTR(-ENOMEM);
}

static void negcam_shmem_free(struct kref *kref)
{
	struct negcam_shmem *mem = container_of(kref, struct negcam_shmem, ref);

	vb2_vmalloc_memops.put(mem->vpriv);
	kfree(mem);
}

/* vb2 frees @priv's buffer (under loop->lock); a mapping keeps its pages. */
static void negcam_share_put(void *priv)
{
	struct negcam_memref *ref = priv;

	if (ref->buf->peer)
		negcam_share_unlink(ref->buf);
	kref_put(&ref->mem->ref, negcam_shmem_free);
	kfree(ref);
}

static void *negcam_share_vaddr(struct vb2_buffer *vb, void *priv)
{
	return vb2_vmalloc_memops.vaddr(vb, negcam_share_vpriv(priv));
}

static struct dma_buf *negcam_share_get_dmabuf(struct vb2_buffer *vb,
					       void *priv, unsigned long flags)
{
	return vb2_vmalloc_memops.get_dmabuf(vb, negcam_share_vpriv(priv), flags);
}

static unsigned int negcam_share_num_users(void *priv)
{
	return vb2_vmalloc_memops.num_users(negcam_share_vpriv(priv));
}

static int negcam_share_mmap(void *priv, struct vm_area_struct *vma)
{
	return vb2_vmalloc_memops.mmap(negcam_share_vpriv(priv), vma);
}

/* Called once at module load: vb2_vmalloc's operations, MMAP wrapped. */
void negcam_share_init(void)
{
	negcam_share_memops = vb2_vmalloc_memops;
	negcam_share_memops.alloc = negcam_share_alloc;
	negcam_share_memops.put = negcam_share_put;
	negcam_share_memops.get_dmabuf = negcam_share_get_dmabuf;
	negcam_share_memops.vaddr = negcam_share_vaddr;
	negcam_share_memops.num_users = negcam_share_num_users;
	negcam_share_memops.mmap = negcam_share_mmap;
}
