import minigrad as mg

first_weights = mg.tensor([0.5, -0.25, 1.5], requires_grad=True, name="first_weights")
input_batch = mg.tensor([1.0, 2.0, -1.0], name="input_batch")
weighted_inputs = first_weights * input_batch
activations = weighted_inputs.tanh()
total_loss = activations.sum()
total_loss.backward()
